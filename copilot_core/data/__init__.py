"""Data layer: the only code that speaks pymongo / litemongo (connection, validated reads, indexes)."""
