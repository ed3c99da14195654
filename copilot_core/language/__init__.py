"""What a question says: the one question parser and the out-of-scope guard, before any model runs."""
