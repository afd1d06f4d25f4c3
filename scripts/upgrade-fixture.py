#!/usr/bin/env python3
"""Helper of scripts/make-upgrade-fixture (standard library only).

    upgrade-fixture.py trip URL                    create the trip through the HTTP API
    upgrade-fixture.py manifest URL OUT.json DB COMMIT   read everything back as the owners see it
    upgrade-fixture.py cli-check URL CLI MANIFEST DIR  the same balances and expenses through the CLI
    upgrade-fixture.py clean-sql IN.sql OUT.sql    pg_dump output -> plain SQL, one statement per ';' line end
    upgrade-fixture.py split-sql FILE.sql DIR      check FILE.sql and write each statement to DIR/NNNN.sql

Every request states the status it expects; any other answer stops the run with the method, the
path, the status and the body. Ids of groups, members, categories, expenses and settlements are
client-generated (uuid5 of a fixed name), so every run writes the same ids; users, shares,
activity and timestamps come from the server.
"""
import json
import re
import sys
import urllib.error
import urllib.request
import uuid

PASSWORD = "fixture password 2026"
NAMESPACE = uuid.UUID("5b1f0c1e-8d4a-4c55-9a59-0f1d2a3b4c5d")
USERS = {
    "aki": {"email": "aki@example.com", "displayName": "Aki"},
    "bo": {"email": "bo@example.com", "displayName": "Bo"},
    "chen": {"email": "chen@example.com", "displayName": "Chen Wei"},
}


def fid(name):
    """The fixture's id for a name: the same in every run."""
    return str(uuid.uuid5(NAMESPACE, name))


class Failure(Exception):
    pass


class API:
    def __init__(self, base):
        self.base = base.rstrip("/")
        self.tokens = {}

    def call(self, who, method, path, body=None, expect=200, headers=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        request.add_header("User-Agent", "make-upgrade-fixture")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if who is not None:
            request.add_header("Authorization", "Bearer " + self.tokens[who])
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        if status != expect:
            raise Failure(f"{method} {path} as {who or 'anonymous'} answered {status}, expected {expect}:\n{text}")
        return json.loads(text) if text else None


def share_of(expense, member_id):
    return next(s for s in expense["splits"] if s["memberId"] == member_id)


def trip(api):
    # --- accounts
    for key, user in USERS.items():
        answer = api.call(None, "POST", "/auth/register", {**user, "password": PASSWORD,
                          "deviceId": f"fixture-{key}", "deviceName": "make-upgrade-fixture"}, expect=201)
        api.tokens[key] = answer["token"]

    # --- group 1, owned by Aki, home currency MYR
    g = fid("group/japan")
    group = api.call("aki", "POST", "/api/groups", {
        "id": g, "name": "Japan 2026 🗾", "homeCurrency": "MYR",
        "description": "Golden Week: KL → Tokyo → Osaka",
    }, expect=201)["group"]
    aki = group["myMemberId"]
    members = f"/api/groups/{g}/members"
    chen = api.call("aki", "POST", members, {"id": fid("member/chen"), "name": "Chen"}, expect=201)["member"]["id"]
    dee = api.call("aki", "POST", members, {"id": fid("member/dee"), "name": "Dee"}, expect=201)["member"]["id"]
    eve = api.call("aki", "POST", members, {"id": fid("member/eve"), "name": "Eve"}, expect=201)["member"]["id"]
    bo = api.call("bo", "POST", "/api/groups/join", {"inviteCode": group["inviteCode"]})["member"]["id"]

    # --- categories: one kept, one renamed, one deleted while an expense still points at it
    cats = f"/api/groups/{g}/categories"
    api.call("aki", "GET", cats)
    souvenirs = api.call("aki", "POST", cats, {"id": fid("category/souvenirs"), "name": "Souvenirs",
                                               "icon": "🎁", "color": "#8E44AD"}, expect=201)["category"]["id"]
    snacks = api.call("aki", "POST", cats, {"id": fid("category/snacks"), "name": "Snacks",
                                            "icon": "🍡", "color": "#F4A261"}, expect=201)["category"]["id"]
    daytrips = api.call("aki", "POST", cats, {"id": fid("category/day-trips"), "name": "Day trips"},
                        expect=201)["category"]["id"]

    # --- exchange rates (1 from = rate to)
    api.call("aki", "PUT", f"/api/groups/{g}/rates", {"rates": [
        {"fromCurrency": "JPY", "toCurrency": "MYR", "date": "2026-04-28", "rate": "0.0305"},
        {"fromCurrency": "JPY", "toCurrency": "MYR", "date": "2026-05-02", "rate": "0.03125"},
        {"fromCurrency": "USD", "toCurrency": "MYR", "date": "2026-04-28", "rate": "4.4725"},
    ]})

    def add(who, key, body, expect=201, idempotency=None):
        body = {"id": fid("expense/" + key), "groupId": g, **body}
        headers = {"Idempotency-Key": idempotency} if idempotency else None
        return api.call(who, "POST", "/api/expenses", body, expect=expect, headers=headers)["expense"]

    def pay(amounts):
        return [{"memberId": m, "amount": a} for m, a in amounts]

    ex = {}
    ex["flight"] = add("aki", "flight", {
        "description": "Flights KUL–NRT", "amount": "2400.00", "currency": "MYR", "category": "Transport",
        "expenseDate": "2026-04-28", "paidBy": pay([(aki, "2400.00")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen, dee]}}, idempotency="fixture-flight")
    ex["hotel"] = add("aki", "hotel", {
        "description": "Hotel Shinjuku, 3 nights", "amount": "100000", "currency": "JPY", "category": "Hotel",
        "expenseDate": "2026-04-29", "paidBy": pay([(aki, "60000"), (bo, "40000")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen]}})
    ex["ichiran"] = add("aki", "ichiran", {
        "description": "Dinner at Ichiran", "amount": "9000", "currency": "JPY", "category": "Meal",
        "expenseDate": "2026-04-29", "paidBy": pay([(aki, "9000")]),
        "split": {"mode": "exact", "amounts": pay([(aki, "3000"), (bo, "2500"), (chen, "2000"), (dee, "1500")])}})
    ex["wifi"] = add("bo", "wifi", {
        "description": "Pocket wifi", "amount": "100.00", "currency": "USD", "category": "Other",
        "expenseDate": "2026-04-28", "paidBy": pay([(bo, "100.00")]),
        "split": {"mode": "percent", "percents": [
            {"memberId": aki, "percent": "33.33"}, {"memberId": bo, "percent": "33.33"},
            {"memberId": chen, "percent": "33.34"}]}})
    ex["izakaya"] = add("aki", "izakaya", {
        "description": "Izakaya night", "amount": "24001", "currency": "JPY", "category": "Meal",
        "expenseDate": "2026-04-30", "paidBy": pay([(chen, "24001")]),
        "split": {"mode": "shares", "shares": [
            {"memberId": aki, "shares": "1.5"}, {"memberId": bo, "shares": "1"},
            {"memberId": chen, "shares": "2.25"}, {"memberId": dee, "shares": "0.75"}]}})
    ex["taxi"] = add("aki", "taxi", {
        "description": "Taxi to KLIA", "amount": "100.00", "currency": "MYR", "category": "Transport",
        "expenseDate": "2026-04-28", "paidBy": pay([(dee, "100.00")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen]}})
    ex["sushi"] = add("aki", "sushi", {
        "description": "Sushi omakase", "amount": "18000", "currency": "JPY", "category": "Meal",
        "expenseDate": "2026-05-01", "paidBy": pay([(aki, "18000")]),
        "split": {"mode": "adjustment", "memberIds": [aki, bo, chen, dee],
                  "adjustments": pay([(aki, "1500"), (dee, "-1000")])}})
    ex["konbini"] = add("bo", "konbini", {
        "description": "Konbini run", "amount": "5640", "currency": "JPY", "category": snacks,
        "expenseDate": "2026-05-01", "paidBy": pay([(bo, "5640")]),
        "split": {"mode": "itemized",
                  "items": [
                      {"description": "Beer", "amount": "3000", "split": {"mode": "equal", "memberIds": [bo, chen]}},
                      {"description": "Fruit", "amount": "2400", "split": {"mode": "shares", "shares": [
                          {"memberId": aki, "shares": "1"}, {"memberId": dee, "shares": "2"}]}}],
                  "extras": [{"description": "Tax", "amount": "540"},
                             {"description": "Coupon", "amount": "-300"}]}})
    ex["shinkansen"] = add("aki", "shinkansen", {
        "description": "Shinkansen Tokyo–Osaka", "amount": "44000", "currency": "JPY", "category": daytrips,
        "expenseDate": "2026-05-02", "paidBy": pay([(aki, "44000")]), "homeAmount": "1320.50",
        "split": {"mode": "equal", "memberIds": [aki, bo, chen, dee]}})
    ex["gift"] = add("aki", "gift", {
        "description": "Gift for our host", "amount": "50.00", "currency": "USD", "category": souvenirs,
        "expenseDate": "2026-05-02", "paidBy": pay([(dee, "50.00")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen]}})
    ex["onsen"] = add("aki", "onsen", {
        "description": "Onsen", "amount": "6000", "currency": "JPY", "category": "Other",
        "expenseDate": "2026-05-03", "paidBy": pay([(aki, "6000")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen, dee]}})
    ex["duplicate"] = add("aki", "duplicate", {
        "description": "Taxi to KLIA (entered twice)", "amount": "45.00", "currency": "MYR", "category": "Transport",
        "expenseDate": "2026-04-28", "paidBy": pay([(dee, "45.00")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen]}})
    ex["karaoke"] = add("aki", "karaoke", {
        "description": "Karaoke", "amount": "12000", "currency": "JPY", "category": "Other",
        "expenseDate": "2026-05-03", "paidBy": pay([(bo, "12000")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen, dee]}})
    ex["coffee"] = add("bo", "coffee", {
        "description": "Coffee", "amount": "10.00", "currency": "USD", "category": "Meal",
        "expenseDate": "2026-05-03", "paidBy": pay([(bo, "10.00")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen]}})
    ex["museum"] = add("aki", "museum", {
        "description": "Museum tickets", "amount": "66.67", "currency": "MYR", "category": "Tickets",
        "expenseDate": "2026-04-27", "paidBy": pay([(aki, "66.67")]),
        "split": {"mode": "percent", "percents": [
            {"memberId": aki, "percent": "12.5"}, {"memberId": bo, "percent": "37.5"},
            {"memberId": chen, "percent": "25"}, {"memberId": dee, "percent": "25"}]}})
    # The seed's shape: one payer of the whole amount, exact shares.
    ex["ramen"] = add("aki", "ramen", {
        "description": "Ramen (seed shape)", "amount": "3200", "currency": "JPY", "category": "Meal",
        "expenseDate": "2026-05-04", "paidByMemberId": chen,
        "splits": pay([(aki, "1100"), (chen, "2100")])})

    # Chen joins, claiming the name-only member "Chen"; then records an expense himself.
    api.call("chen", "POST", "/api/groups/join", {"inviteCode": group["inviteCode"], "memberId": chen})
    ex["kitkat"] = add("chen", "kitkat", {
        "description": "KitKat souvenirs", "amount": "3500", "currency": "JPY", "category": souvenirs,
        "expenseDate": "2026-05-05", "paidBy": pay([(chen, "3500")]),
        "split": {"mode": "shares", "shares": [
            {"memberId": aki, "shares": "0.5"}, {"memberId": chen, "shares": "1.25"}]}})
    ex["ferry"] = add("chen", "ferry", {
        "description": "Ferry to Miyajima", "amount": "1000", "currency": "JPY", "category": "Transport",
        "expenseDate": "2026-05-05", "paidBy": pay([(chen, "700"), (dee, "300")]),
        "split": {"mode": "equal", "memberIds": [aki, bo, chen]}})

    # Edits: PATCH with version 1 (description and amount), then PUT with If-Match (the split).
    ex["onsen"] = api.call("aki", "PATCH", f"/api/expenses/{ex['onsen']['id']}", {
        "description": "Onsen day pass", "amount": "7500", "paidBy": pay([(aki, "7500")]), "version": 1})["expense"]
    ex["onsen"] = api.call("aki", "PUT", f"/api/expenses/{ex['onsen']['id']}", {
        "split": {"mode": "adjustment", "memberIds": [aki, bo, chen, dee], "adjustments": pay([(bo, "-500")])}},
        headers={"If-Match": str(ex["onsen"]["version"])})["expense"]
    # Deleted; deleted and restored.
    api.call("aki", "DELETE", f"/api/expenses/{ex['duplicate']['id']}", headers={"If-Match": "1"})
    api.call("aki", "DELETE", f"/api/expenses/{ex['karaoke']['id']}")
    api.call("aki", "POST", f"/api/expenses/{ex['karaoke']['id']}/restore")

    # Category: renamed; deleted while "Shinkansen" still points at it.
    api.call("aki", "PATCH", f"{cats}/{snacks}", {"name": "Snacks & drinks", "color": "#E76F51", "version": 1})
    api.call("aki", "DELETE", f"{cats}/{daytrips}", expect=204)

    # Shares: one marked paid with a reason, one paid and unpaid again, one marked by its debtor.
    api.call("aki", "PATCH", f"/api/expense-splits/{share_of(ex['ichiran'], bo)['id']}/payment",
             {"isPaid": True, "reason": "Paid in cash at the counter"})
    taxi_chen = share_of(ex["taxi"], chen)["id"]
    api.call("aki", "PATCH", f"/api/expense-splits/{taxi_chen}/payment", {"isPaid": True, "reason": "Bank transfer"})
    api.call("aki", "PATCH", f"/api/expense-splits/{taxi_chen}/payment",
             {"isPaid": False, "reason": "Wrong person: it was Bo who paid"})
    api.call("bo", "PATCH", f"/api/expense-splits/{share_of(ex['flight'], bo)['id']}/payment",
             {"isPaid": True, "reason": "DuitNow transfer"})

    # Settlements: one kept, one recorded and deleted.
    sets = f"/api/groups/{g}/settlements"
    api.call("bo", "POST", sets, {"id": fid("settlement/bo-aki"), "fromMemberId": bo, "toMemberId": aki,
                                  "amount": "200.00", "currency": "MYR", "date": "2026-05-06",
                                  "note": "Bank transfer"}, expect=201, headers={"Idempotency-Key": "fixture-bo-aki"})
    wrong = api.call("aki", "POST", sets, {"id": fid("settlement/chen-aki"), "fromMemberId": chen, "toMemberId": aki,
                                           "amount": "5000", "currency": "JPY", "date": "2026-05-06",
                                           "note": "Cash (recorded by mistake)"}, expect=201)["settlement"]
    api.call("aki", "DELETE", f"/api/settlements/{wrong['id']}")

    # Members: Bo becomes admin, flags change, Dee is renamed, Eve (no expenses) is removed.
    api.call("aki", "PATCH", f"{members}/{bo}", {"role": "admin", "canEditAllExpenses": True})
    api.call("aki", "PATCH", f"{members}/{chen}", {"canMarkPaid": False})
    api.call("aki", "PATCH", f"{members}/{dee}", {"name": "Dee (cousin)", "canAddExpenses": False})
    api.call("aki", "DELETE", f"{members}/{eve}")

    # The group: a new description (version 2) and a rotated invite code.
    api.call("aki", "PATCH", f"/api/groups/{g}", {"description": "Golden Week: KL → Tokyo → Osaka\nSettle by June."})
    api.call("aki", "POST", f"/api/groups/{g}/invite-code")

    # --- group 2, owned by Bo, home currency SGD, Aki a member
    g2 = fid("group/singapore")
    sg = api.call("bo", "POST", "/api/groups", {"id": g2, "name": "Singapore weekend", "homeCurrency": "SGD",
                                                "memberName": "Bo B."}, expect=201)["group"]
    aki2 = api.call("aki", "POST", "/api/groups/join", {"inviteCode": sg["inviteCode"]})["member"]["id"]
    bo2 = sg["myMemberId"]
    api.call("bo", "POST", "/api/expenses", {
        "id": fid("expense/sg-crab"), "groupId": g2, "description": "Chilli crab", "amount": "180.00",
        "currency": "SGD", "category": "Meal", "expenseDate": "2026-06-13", "paidBy": pay([(bo2, "180.00")]),
        "split": {"mode": "equal", "memberIds": [aki2, bo2]}}, expect=201)
    api.call("aki", "POST", "/api/expenses", {
        "id": fid("expense/sg-hawker"), "groupId": g2, "description": "Hawker centre", "amount": "23.40",
        "currency": "SGD", "category": "Meal", "expenseDate": "2026-06-14", "paidBy": pay([(aki2, "23.40")]),
        "split": {"mode": "exact", "amounts": pay([(aki2, "10.20"), (bo2, "13.20")])}}, expect=201)

    for key in USERS:
        api.call(key, "POST", "/auth/logout", expect=204)
    print(f"trip: 2 groups, {len(ex) + 2} expenses")


def pages(api, who, path, key):
    """Every item of a cursor-paginated list."""
    items, cursor = [], None
    while True:
        sep = "&" if "?" in path else "?"
        url = path + sep + "limit=200" + (f"&cursor={cursor}" if cursor else "")
        answer = api.call(who, "GET", url)
        items += answer[key]
        cursor = answer.get("nextCursor")
        if not cursor:
            return items


def group_view(api, who, owner, gid):
    base = f"/api/groups/{gid}"
    group = api.call(who, "GET", base)["group"]
    expenses = pages(api, who, f"{base}/expenses?includeDeleted=true", "expenses")
    for expense in expenses:
        single = api.call(who, "GET", f"/api/expenses/{expense['id']}")["expense"]
        if single != expense:
            raise Failure(f"GET /api/expenses/{expense['id']} differs from the list's entry")
    history = {}
    for expense in expenses:
        for share in expense["splits"]:
            entries = api.call(who, "GET", f"/api/expense-splits/{share['id']}/history")["history"]
            if entries:
                history[share["id"]] = entries
    balances = api.call(who, "GET", f"{base}/balances")
    currencies = sorted({b["currency"] for b in balances["balances"]} | {group["homeCurrency"]})
    changes, since = [], None
    while True:
        page = api.call(who, "GET", f"{base}/changes" + (f"?since={since}" if since else ""))
        changes.append(page)
        since = page["cursor"]
        if not page["hasMore"]:
            break
    return {
        "readAs": owner,
        "group": group,
        "members": api.call(who, "GET", f"{base}/members")["members"],
        "categories": api.call(who, "GET", f"{base}/categories")["categories"],
        "expenses": expenses,
        "shareHistory": history,
        "balances": balances,
        "settlements": api.call(who, "GET", f"{base}/settlements?includeDeleted=true")["settlements"],
        "settlementPlans": {c: api.call(who, "GET", f"{base}/settlement-plan?currency={c}") for c in currencies},
        "debts": api.call(who, "GET", f"{base}/debts"),
        "rates": api.call(who, "GET", f"{base}/rates")["rates"],
        "activity": pages(api, who, f"{base}/activity", "activity"),
        "changes": changes,
    }


def manifest(api, out, database, migrations, commit):
    users = {}
    for key, user in USERS.items():
        answer = api.call(None, "POST", "/auth/login", {"emailOrPhone": user["email"], "password": PASSWORD})
        api.tokens[key] = answer["token"]
        me = api.call(key, "GET", "/auth/me")["user"]
        users[key] = me
    groups = []
    seen = set()
    for key in USERS:
        for group in api.call(key, "GET", "/api/groups")["groups"]:
            if group["myRole"] == "owner" and group["id"] not in seen:
                seen.add(group["id"])
                owner = {"key": key, "userId": users[key]["id"], "email": users[key]["email"]}
                groups.append(group_view(api, key, owner, group["id"]))
    groups.sort(key=lambda view: view["group"]["createdAt"])
    for key in USERS:
        api.call(key, "POST", "/auth/logout", expect=204)
    document = {
        "about": ("What the server that wrote the database served for it, read as each group's owner "
                  "(see readAs): written by scripts/make-upgrade-fixture. Log in with a user's email and "
                  "`password` to read the same through the API; tokens are not kept."),
        "database": database,
        "sourceCommit": commit,
        "migrations": migrations,
        "password": PASSWORD,
        "users": [users[key] for key in USERS],
        "groups": groups,
    }
    with open(out, "w", encoding="utf-8") as file:
        json.dump(document, file, indent=2, sort_keys=True, ensure_ascii=False)
        file.write("\n")
    count = sum(len(view["expenses"]) for view in groups)
    print(f"manifest: {out}: {len(groups)} groups, {count} expenses, "
          f"{sum(len(view['activity']) for view in groups)} activity entries")


def cli_check(base, cli, manifest_path, config_dir):
    """Reads each group's balances and expense ids through the splitter CLI, as its owner, and
    compares them with the manifest: a second client that agrees with what was recorded."""
    import os
    import subprocess
    with open(manifest_path, encoding="utf-8") as file:
        document = json.load(file)
    for view in document["groups"]:
        env = {**os.environ, "SPLITTER_CONFIG_DIR": config_dir, "SPLITTER_PASSWORD": document["password"]}
        profile = ["--profile", view["readAs"]["key"]]

        def run(*args):
            done = subprocess.run([cli, *args, *profile], env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise Failure(f"splitter {' '.join(args)} exited with {done.returncode}: {done.stderr.strip()}")
            return done.stdout

        run("login", view["readAs"]["email"], "--server", base)
        gid = view["group"]["id"]
        balances = json.loads(run("balances", gid, "--json"))
        if balances != view["balances"]:
            raise Failure(f"splitter balances {gid} differs from the manifest:\n{balances}\n{view['balances']}")
        listed = [e["id"] for e in json.loads(run("expense", "list", gid, "--deleted", "--json"))]
        if sorted(listed) != sorted(e["id"] for e in view["expenses"]):
            raise Failure(f"splitter expense list {gid} --deleted lists other expenses than the manifest")
        run("logout")
        print(f"cli-check: {view['group']['name']}: balances and {len(listed)} expense ids agree")


# --- the SQL dump

def clean_sql(source, target):
    """Drops psql meta-commands (lines starting with a backslash), comments and blank lines that
    lie outside string literals; keeps everything else as pg_dump wrote it."""
    kept, in_string, dropped = [], False, {"meta": 0, "comment": 0, "blank": 0}
    with open(source, encoding="utf-8") as file:
        for line in file.read().split("\n"):
            if not in_string:
                if line.startswith("\\"):
                    dropped["meta"] += 1
                    continue
                if line.startswith("--"):
                    dropped["comment"] += 1
                    continue
                if line.strip() == "":
                    dropped["blank"] += 1
                    continue
            kept.append(line)
            # A quote inside a literal is doubled, so the parity of quotes says where a line ends.
            if line.count("'") % 2 == 1:
                in_string = not in_string
    if in_string:
        raise Failure("clean-sql: the dump ends inside a string literal")
    with open(target, "w", encoding="utf-8") as file:
        file.write("\n".join(kept) + "\n")
    print(f"clean-sql: dropped {dropped['meta']} meta-command, {dropped['comment']} comment and "
          f"{dropped['blank']} blank lines; {len(kept)} lines kept")


def statements(path):
    """Splits naively: a statement ends at a line ending in ';'."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    chunks, current = [], []
    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
        current.append(line)
        if line.endswith(";"):
            chunks.append("\n".join(current) + "\n")
            current = []
    if current:
        raise Failure(f"split-sql: the text after the last statement does not end with ';': {current[:3]}")
    return chunks


def split_sql(path, directory):
    chunks = statements(path)
    problems = []
    for index, chunk in enumerate(chunks):
        body = chunk[:-2]  # without the final ";\n"
        if ";\n" in body:
            problems.append(f"statement {index + 1} contains ';\\n' inside")
        if chunk.count("'") % 2:
            problems.append(f"statement {index + 1} ends inside a string literal")
        if re.match(r"\s*(--|\\)", chunk) or "\n\n" in chunk:
            problems.append(f"statement {index + 1} has a comment, meta-command or blank line")
    if problems:
        raise Failure("split-sql: " + "; ".join(problems[:10]))
    for index, chunk in enumerate(chunks):
        with open(f"{directory}/{index:05d}.sql", "w", encoding="utf-8") as file:
            file.write(chunk)
    kinds = {}
    for chunk in chunks:
        word = " ".join(chunk.split()[:2]) if chunk.startswith(("CREATE", "ALTER", "SET")) else chunk.split()[0]
        kinds[word] = kinds.get(word, 0) + 1
    print(f"split-sql: {len(chunks)} statements, each ending with ';' at a line end, none with ';\\n' inside: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))


def main(argv):
    try:
        if argv[1:2] == ["trip"]:
            trip(API(argv[2]))
        elif argv[1:2] == ["manifest"]:
            migrations = [line for line in sys.stdin.read().split("\n") if line]
            manifest(API(argv[2]), argv[3], argv[4], migrations, argv[5])
        elif argv[1:2] == ["cli-check"]:
            cli_check(argv[2], argv[3], argv[4], argv[5])
        elif argv[1:2] == ["clean-sql"]:
            clean_sql(argv[2], argv[3])
        elif argv[1:2] == ["split-sql"]:
            split_sql(argv[2], argv[3])
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except Failure as failure:
        print(f"make-upgrade-fixture: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
