#!/usr/bin/env python3
"""A throwaway SMTP server for the SMTP client's tests (Tests/SplitServerTests/SMTPClientTests.swift,
started through Sources/SplitTestSupport/SMTPSink.swift). Built on aiosmtpd (PyPI), which
scripts/test installs before the Swift tests run.

    smtp-sink.py --dir DIR [--port 0] [--tls-cert PEM --tls-key PEM [--require-tls | --implicit-tls]]
                 [--auth USER:PASS [--auth-exclude PLAIN]] [--reject-rcpt ADDR]... [--tempfail-rcpt ADDR]...

Listens on 127.0.0.1 (port 0: the OS picks one) and prints `READY <port>` once listening. Each
message accepted is written as DIR/<n>.eml (the bytes received, after the transport's
dot-unstuffing) and DIR/<n>.json: the envelope (mail_from, rcpt_tos), whether the session was
over TLS, who authenticated, and the message as Python's `email` package reads it (decoded
subject, From display name, plain and HTML parts), so a test checks what a mail reader would show.
Every AUTH attempt, successful or not, is appended to DIR/auth-attempts.jsonl (login and
mechanism, never the password), so a test can prove that no credentials were sent.
With --implicit-tls the sink speaks TLS from the first byte (smtps) and offers no STARTTLS.
--reject-rcpt answers 550 and --tempfail-rcpt 451 for that recipient. SIGTERM stops it.
"""
import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    def __init__(self, directory, reject, tempfail):
        self.directory = directory
        self.reject = {address.lower() for address in reject}
        self.tempfail = {address.lower() for address in tempfail}
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.reject:
            return "550 5.1.1 <%s>: no such user here" % address
        if address.lower() in self.tempfail:
            return "451 4.3.0 <%s>: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        raw = envelope.original_content or b""
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        plain = parsed.get_body(preferencelist=("plain",))
        html = parsed.get_body(preferencelist=("html",))
        sender = parsed["From"]
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": is_tls(server, session),
            "auth_login": login_text(session.auth_data) if session.authenticated else None,
            "subject": str(parsed["Subject"]) if parsed["Subject"] is not None else None,
            "from_display_name": sender.addresses[0].display_name if sender is not None else None,
            "text": plain.get_content() if plain is not None else None,
            "html": html.get_content() if html is not None else None,
            "defects": [type(defect).__name__ for defect in parsed.defects],
        }
        base = os.path.join(self.directory, str(self.count))
        with open(base + ".eml", "wb") as file:
            file.write(raw)
        # The JSON last and renamed into place: a reader that sees it sees a whole message.
        with open(base + ".json.tmp", "w", encoding="utf-8") as file:
            json.dump(record, file, ensure_ascii=False)
        os.replace(base + ".json.tmp", base + ".json")
        return "250 2.0.0 Message accepted"


def is_tls(server, session):
    # session.ssl is set by STARTTLS only; an implicit-TLS transport carries its SSL object.
    return session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None


def login_text(auth_data):
    if isinstance(auth_data, LoginPassword):
        return auth_data.login.decode("utf-8", "replace")
    return None


class Authenticator:
    def __init__(self, directory, user, password):
        self.path = os.path.join(directory, "auth-attempts.jsonl")
        self.user = user
        self.password = password

    def __call__(self, server, session, envelope, mechanism, auth_data):
        login = login_text(auth_data)
        succeeded = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == self.user.encode()
            and auth_data.password == self.password.encode()
        )
        with open(self.path, "a", encoding="utf-8") as file:
            file.write(json.dumps({"mechanism": mechanism, "login": login, "succeeded": succeeded,
                                   "tls": is_tls(server, session)}) + "\n")
        return AuthResult(success=succeeded, handled=False, auth_data=auth_data if succeeded else None)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--require-tls", action="store_true")
    parser.add_argument("--implicit-tls", action="store_true")
    parser.add_argument("--auth", metavar="USER:PASS")
    parser.add_argument("--auth-exclude", action="append", default=[], metavar="MECHANISM")
    parser.add_argument("--reject-rcpt", action="append", default=[], metavar="ADDR")
    parser.add_argument("--tempfail-rcpt", action="append", default=[], metavar="ADDR")
    args = parser.parse_args()
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if (args.require_tls or args.implicit_tls) and not args.tls_cert:
        parser.error("--require-tls and --implicit-tls need --tls-cert and --tls-key")
    if args.require_tls and args.implicit_tls:
        parser.error("--require-tls is for STARTTLS; --implicit-tls is TLS from the first byte")
    os.makedirs(args.dir, exist_ok=True)

    tls_context = None
    if args.tls_cert:
        tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls_context.load_cert_chain(args.tls_cert, args.tls_key)

    authenticator = None
    if args.auth:
        user, _, password = args.auth.partition(":")
        authenticator = Authenticator(args.dir, user, password)

    handler = Sink(args.dir, args.reject_rcpt, args.tempfail_rcpt)

    starttls_context = None if args.implicit_tls else tls_context

    def session():
        return SMTP(
            handler,
            hostname="smtp-sink.test",
            tls_context=starttls_context,
            require_starttls=args.require_tls,
            authenticator=authenticator,
            auth_required=authenticator is not None,
            # Without TLS on offer, AUTH over plain text is the only way to test that a client
            # refuses to send credentials there (it must stop at the missing STARTTLS first).
            # aiosmtpd counts only STARTTLS as TLS here, so implicit TLS must say it is fine too.
            auth_require_tls=starttls_context is not None or authenticator is None,
            auth_exclude_mechanism=args.auth_exclude or None,
            # Generous: a test process on a loaded machine may answer a greeting late.
            timeout=600,
        )

    loop = asyncio.get_running_loop()
    # A child inherits its parent's blocked signals, and a Swift test process starts us from a
    # thread that blocks nearly all of them: without this, SIGTERM would wait for a SIGKILL.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    server = await loop.create_server(session, host="127.0.0.1", port=args.port,
                                      ssl=tls_context if args.implicit_tls else None)
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    print("READY %d" % server.sockets[0].getsockname()[1], flush=True)
    await stop.wait()
    # Not wait_closed(): on newer Pythons it waits for open sessions, and a test is done with them.
    server.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
