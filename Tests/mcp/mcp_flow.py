#!/usr/bin/env python3
"""The MCP server with the official Python client (PyPI `mcp`), as an assistant would use it.

    mcp_flow.py SPLITTER_SERVER_BINARY SPLITTER_BINARY

Starts the server on a fresh SQLite file, makes an account, a trip with three people and two
access tokens (one that writes in the trip, one that only reads) through the HTTP API, then:
  * over Streamable HTTP (POST /mcp): lists the tools (read-only ones annotated so), adds an
    expense with add_expense and one with quick_add (previewed first), reads balances and the
    settle-up plan, and checks the shares add up; the read token lists and reads but is
    refused add_expense, and nothing is written; no token is a 401;
  * over stdio (`splitter mcp` with a profile that uses the write token): lists the tools,
    adds an expense, reads balances.
Exits non-zero at the first check that fails.
"""
import asyncio
import json
from decimal import Decimal
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

SERVER, SPLITTER = sys.argv[1], sys.argv[2]
checks = 0


def check(condition, message):
    global checks
    if not condition:
        raise AssertionError(message)
    checks += 1


def start_server(folder):
    log = open(os.path.join(folder, "server.log"), "w+")
    env = dict(os.environ, DATABASE_URL=f"sqlite://{folder}/mcp.sqlite", LOG_LEVEL="info")
    process = subprocess.Popen([SERVER, "--http-port", "0"], stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        log.seek(0)
        match = re.search(r"port=(\d+)", log.read())
        if match:
            return process, f"http://127.0.0.1:{match.group(1)}"
        if process.poll() is not None:
            break
        time.sleep(0.2)
    log.seek(0)
    sys.exit("server did not start:\n" + log.read())


def api(base, method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def text_of(result):
    return "".join(part.text for part in result.content if getattr(part, "type", "") == "text")


async def over_http(base, write_token, read_token, group, members):
    async def session_for(token):
        return create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})

    async with await session_for(write_token) as http:
        async with streamable_http_client(f"{base}/mcp", http_client=http, terminate_on_close=False) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                tools = {tool.name: tool for tool in (await session.list_tools()).tools}
                for name in ["list_groups", "list_members", "list_expenses", "add_expense", "quick_add", "balances", "settle_plan",
                             "record_settlement", "mark_share_paid", "budget_status", "spending_by_person",
                             "create_payment_request"]:
                    check(name in tools, f"tool {name} is listed")
                    check(tools[name].input_schema.get("type") == "object", f"{name} has a JSON schema")
                check(tools["balances"].annotations.read_only_hint is True, "balances is read-only")
                check(tools["add_expense"].annotations.read_only_hint is False, "add_expense writes")
                groups = json.loads(text_of(await session.call_tool("list_groups", {})))
                check([g["name"] for g in groups["groups"]] == ["Japan"], f"the token sees its group: {groups}")
                added = await session.call_tool("add_expense", {
                    "groupId": group, "description": "Hotel", "amount": "30000", "currency": "JPY",
                    "expenseDate": "2026-05-02", "idempotencyKey": "hotel-1"})
                check(not added.is_error, f"add_expense: {text_of(added)}")
                again = await session.call_tool("add_expense", {
                    "groupId": group, "description": "Hotel", "amount": "30000", "currency": "JPY",
                    "expenseDate": "2026-05-02", "idempotencyKey": "hotel-1"})
                check(json.loads(text_of(again))["expense"]["id"] == json.loads(text_of(added))["expense"]["id"],
                      "the same idempotency key adds it once")
                preview = json.loads(text_of(await session.call_tool(
                    "quick_add", {"groupId": group, "text": "Ramen ¥1000 paid by Bo, all"})))
                check(sorted(s["amount"] for s in preview["splits"]) == ["333", "333", "334"],
                      f"quick_add previews the exact shares: {preview}")
                check(len(preview.get("id", "")) == 36, f"the preview says the id it used: {preview}")
                vague = json.loads(text_of(await session.call_tool("quick_add", {"groupId": group, "text": "Dinner $40"})))
                check(vague["problems"], f"an ambiguous line is asked about, not saved: {vague}")
                saved = await session.call_tool(
                    "quick_add", {"groupId": group, "text": "Ramen ¥1000 paid by Bo, all", "dryRun": False,
                                  "id": preview["id"]})
                check(not saved.is_error, f"quick_add saves: {text_of(saved)}")
                stored = json.loads(text_of(saved))["expense"]
                check(stored["id"] == preview["id"]
                      and {s["memberId"]: s["amount"] for s in stored["splits"]}
                      == {s["memberId"]: s["amount"] for s in preview["splits"]},
                      f"saved with the preview's id, its shares are the ones previewed (the leftover yen too): {stored}")
                balances = json.loads(text_of(await session.call_tool("balances", {"groupId": group})))
                nets = [int(b["net"]) for b in balances["balances"] if b["currency"] == "JPY"]
                check(sum(nets) == 0 and any(nets), f"balances add up to zero: {balances}")
                # Whose ids those are (found by a new user: no tool said).
                members = json.loads(text_of(await session.call_tool("list_members", {"groupId": group})))
                named = {m["id"]: m["name"] for m in members["members"]}
                check(all(b["memberId"] in named for b in balances["balances"]) and "Bo" in named.values(),
                      f"list_members names every member the balances name: {members}")
                spending = json.loads(text_of(await session.call_tool("spending_by_person", {"groupId": group})))
                paid = sum(int(p["paid"]) for p in spending["people"])
                shares = sum(int(p["share"]) for p in spending["people"])
                check(paid == shares == int(spending["total"]) > 0 and spending["currency"] == "JPY",
                      f"spending_by_person: what was paid is what was shared: {spending}")
                plan = json.loads(text_of(await session.call_tool("settle_plan", {"groupId": group})))
                check(plan["transfers"], f"a plan to settle: {plan}")
                check("note" not in plan, f"one currency, nothing more to say: {plan}")
                # With dollars open too, the yen plan says so (found by review: an empty plan
                # read as everyone settled).
                usd = await session.call_tool("add_expense", {
                    "groupId": group, "description": "Museum", "amount": "30.00", "currency": "USD",
                    "expenseDate": "2026-05-03", "idempotencyKey": "museum-1"})
                check(not usd.is_error, f"add_expense in USD: {text_of(usd)}")
                plan = json.loads(text_of(await session.call_tool("settle_plan", {"groupId": group})))
                check("also open in USD" in plan.get("note", ""), f"the plan names the other currency: {plan}")
                other = await session.call_tool("balances", {"groupId": "00000000-0000-0000-0000-000000000000"})
                check(other.is_error and "no such group" in text_of(other).lower(), f"another group is not found: {text_of(other)}")
                # An argument the schema does not have is refused, naming it (it was ignored).
                extra = await session.call_tool("balances", {"groupId": group, "extra": 1})
                check(extra.is_error and "takes no argument “extra”" in text_of(extra), f"an unknown argument is refused: {text_of(extra)}")
                count = len(json.loads(text_of(await session.call_tool("list_expenses", {"groupId": group})))["expenses"])
                misspelt = await session.call_tool("add_expense", {
                    "groupId": group, "description": "Tea", "amount": "300", "currency": "JPY",
                    "expenseDate": "2026-05-02", "idempotencykey": "k-1"})
                after = len(json.loads(text_of(await session.call_tool("list_expenses", {"groupId": group})))["expenses"])
                check(misspelt.is_error and "“idempotencykey”" in text_of(misspelt) and after == count,
                      f"a misspelt argument is named and writes nothing: {text_of(misspelt)}")

    async with await session_for(read_token) as http:
        async with streamable_http_client(f"{base}/mcp", http_client=http, terminate_on_close=False) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                check(len((await session.list_tools()).tools) == 12, "a read token lists the tools")
                balances = await session.call_tool("balances", {"groupId": group})
                check(not balances.is_error, "a read token reads balances")
                refused = await session.call_tool("add_expense", {
                    "groupId": group, "description": "Sneaky", "amount": "100", "currency": "JPY", "expenseDate": "2026-05-02"})
                check(refused.is_error and "only read" in text_of(refused), f"a read token may not write: {text_of(refused)}")
                # A preview only reads (found by a new user: a read token could not even preview);
                # saving is a write.
                previewed = await session.call_tool("quick_add", {"groupId": group, "text": "Tea ¥300 paid by Bo, all"})
                check(not previewed.is_error and "300" in text_of(previewed), f"a read token previews: {text_of(previewed)}")
                unsaved = await session.call_tool("quick_add", {"groupId": group, "text": "Tea ¥300 paid by Bo, all", "dryRun": False})
                check(unsaved.is_error and "only read" in text_of(unsaved), f"a read token may not save: {text_of(unsaved)}")


async def over_stdio(config, group):
    params = StdioServerParameters(command=SPLITTER, args=["mcp", "--profile", "bot"],
                                   env=dict(os.environ, SPLITTER_CONFIG_DIR=config))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = [tool.name for tool in (await session.list_tools()).tools]
            check("add_expense" in names and "balances" in names, f"stdio lists the tools: {names}")
            added = await session.call_tool("add_expense", {
                "groupId": group, "description": "Taxi", "amount": "3000", "currency": "JPY", "expenseDate": "2026-05-03"})
            check(not added.is_error, f"stdio add_expense: {text_of(added)}")
            balances = json.loads(text_of(await session.call_tool("balances", {"groupId": group})))
            for currency in {b["currency"] for b in balances["balances"]}:
                check(sum(Decimal(b["net"]) for b in balances["balances"] if b["currency"] == currency) == 0,
                      f"stdio balances add up in {currency}")


def main():
    folder = tempfile.mkdtemp(prefix="splitter-mcp-")
    process, base = start_server(folder)
    try:
        status, registered = api(base, "POST", "/auth/register",
                                 body={"email": "aki@example.com", "password": "correct horse", "displayName": "Aki"})
        check(status == 201, f"register: {registered}")
        login = registered["token"]
        status, created = api(base, "POST", "/api/groups", login, {"name": "Japan", "homeCurrency": "JPY"})
        group = created["group"]["id"]
        api(base, "POST", "/api/groups", login, {"name": "Home", "homeCurrency": "EUR"})
        members = {}
        for name in ["Bo", "Chen"]:
            status, member = api(base, "POST", f"/api/groups/{group}/members", login, {"name": name})
            members[name] = member["member"]["id"]
        status, write = api(base, "POST", "/api/tokens", login, {"name": "assistant", "scopes": ["write"], "groupIds": [group]})
        check(status == 201, f"write token: {write}")
        status, read = api(base, "POST", "/api/tokens", login, {"name": "reader", "scopes": ["read"]})
        check(status == 201, f"read token: {read}")
        # No token: the endpoint says log in.
        request = urllib.request.Request(f"{base}/mcp", method="POST", data=b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
        request.add_header("Content-Type", "application/json")
        try:
            urllib.request.urlopen(request)
            check(False, "no token was accepted")
        except urllib.error.HTTPError as error:
            check(error.code == 401, f"no token is a 401, got {error.code}")

        asyncio.run(over_http(base, write["secret"], read["secret"], group, members))
        status, listed = api(base, "GET", f"/api/groups/{group}/expenses", login)
        check(sorted(e["description"] for e in listed["expenses"]) == ["Hotel", "Museum", "Ramen"],
              f"HTTP wrote the hotel once and the ramen, never the read token's: {[e['description'] for e in listed['expenses']]}")

        config = os.path.join(folder, "cli")
        login_bot = subprocess.run([SPLITTER, "login", "--profile", "bot", "--server", base, "--token-stdin"],
                                   input=write["secret"] + "\n", capture_output=True, text=True,
                                   env=dict(os.environ, SPLITTER_CONFIG_DIR=config))
        check(login_bot.returncode == 0, f"splitter login --token-stdin: {login_bot.stderr}")
        asyncio.run(over_stdio(config, group))
        status, listed = api(base, "GET", f"/api/groups/{group}/expenses", login)
        check(len(listed["expenses"]) == 4, "stdio added the taxi")
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(f"mcp flow: {checks} checks passed")


if __name__ == "__main__":
    main()
