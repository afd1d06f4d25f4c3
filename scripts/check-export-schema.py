#!/usr/bin/env python3
"""Validates group exports against a JSON Schema (draft 2020-12).

Usage: check-export-schema.py SCHEMA FILE...

Prints "ok FILE" for each valid file, else each error with its JSON path.
Exits 1 if any file is invalid or unreadable, 2 on wrong usage or a bad schema.
Needs the jsonschema package (pip install jsonschema).
"""
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    sys.exit("check-export-schema.py needs jsonschema: pip install jsonschema")


def path_of(error):
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def main(args):
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema_path, files = args[0], args[1:]
    try:
        with open(schema_path, encoding="utf-8") as handle:
            schema = json.load(handle)
        Draft202012Validator.check_schema(schema)
    except Exception as error:  # unreadable file, bad JSON, or not a valid schema
        print(f"bad schema {schema_path}: {error}", file=sys.stderr)
        return 2
    validator = Draft202012Validator(schema)
    failed = False
    for name in files:
        try:
            with open(name, encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as error:
            print(f"error {name}: {error}")
            failed = True
            continue
        errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
        if not errors:
            print(f"ok {name}")
            continue
        failed = True
        print(f"invalid {name}: {len(errors)} error(s)")
        for error in errors:
            print(f"  {path_of(error)}: {error.message}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
