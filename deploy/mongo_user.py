"""The least-privilege MongoDB user for the copilot: ``find`` on exactly the QDash collections the app reads,
write only on its own two collections, and nothing else of QDash's database (never its ``user`` collection, which
holds password hashes and every user's API token).  Prints the commands as JSON (``--print``, default) or runs them
with a root URI (``--apply``).

    python deploy/mongo_user.py --print
    python deploy/mongo_user.py --apply --uri "mongodb://root:PW@localhost:27017/?authSource=admin" \\
        --password "$COPILOT_MONGO_PASSWORD"

The user lives in ``admin`` (like QDash's root user, so the URI says ``authSource=admin``); the role lives in
``admin`` too, because a role there may name collections of another database.
"""

from __future__ import annotations

import argparse
import json
import sys

OWN_COLLECTIONS = ("copilot_chat_session", "copilot_memory")
# The QDash collections the data layer reads (find, aggregate, distinct, count all need only ``find``).
READ_COLLECTIONS = ("chip", "qubit", "coupling", "task_result_history", "execution_history", "calibration_note",
                    "parameter_versions", "provenance_activities", "provenance_relations")
# What the app does on its own collections: find, insert_one, update_one($set), delete_one/many, createIndexes.
OWN_ACTIONS = ("find", "insert", "update", "remove", "createIndex", "listIndexes")
ROLE = "copilotWriter"
USER = "copilot"


def commands(db_name: str = "qdash", user: str = USER, password: str = "<password>") -> list[dict]:
    """``createRole`` then ``createUser``, as run against the ``admin`` database.  The user has this one role and
    no built-in one (``read`` on the database would reach every collection, ``user`` included)."""
    privileges = [{"resource": {"db": db_name, "collection": c}, "actions": ["find"]} for c in READ_COLLECTIONS]
    privileges += [{"resource": {"db": db_name, "collection": c}, "actions": list(OWN_ACTIONS)}
                   for c in OWN_COLLECTIONS]
    return [{"createRole": ROLE, "privileges": privileges, "roles": []},
            {"createUser": user, "pwd": password, "roles": [{"role": ROLE, "db": "admin"}]}]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default="qdash", help="QDash's database (MONGO_DB_NAME)")
    parser.add_argument("--user", default=USER)
    parser.add_argument("--apply", action="store_true", help="run the commands (needs --uri of a root user)")
    parser.add_argument("--uri", help="a MongoDB URI with userAdmin rights, e.g. QDash's root user")
    parser.add_argument("--password", help="the new user's password (with --apply)")
    parser.add_argument("--print", action="store_true", help="print the commands as JSON (default)")
    args = parser.parse_args(argv)
    if not args.apply:
        print(json.dumps(commands(args.db, args.user), indent=2))
        return 0
    if not args.uri or not args.password:
        parser.error("--apply needs --uri and --password")
    from pymongo import MongoClient
    from pymongo.errors import PyMongoError

    try:
        admin = MongoClient(args.uri, serverSelectionTimeoutMS=5000)["admin"]
        for command in commands(args.db, args.user, args.password):
            admin.command(command)
    except PyMongoError as exc:
        print(f"error: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}", file=sys.stderr)
        return 1
    print(f"created role {ROLE} and user {args.user} (find on {len(READ_COLLECTIONS)} collections of {args.db}, "
          f"write on {', '.join(OWN_COLLECTIONS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
