#!/usr/bin/env python3
"""A local stand-in for the App Store Connect API's background-assets and review-submission parts, for odrpack's
upload, submit and status tests only.

It serves 127.0.0.1 on a free port (printed as "port N" on stdout once listening) and:
- rejects (and logs as rejected) every request Apple's OpenAPI description of API 4.4.1 does not allow: the path and
  method, every query parameter (declared, enum values, maxima; `cursor`, which App Store Connect's `links.next` carry,
  is the one addition), the JSON body against the operation's schema (required members, types, enums, and no member the
  schema does not name), Content-Type on bodies, User-Agent odrpack/<version> on every request;
- verifies the bearer JWT (ES256 with the test key, header, claims, lifetime at most 20 minutes);
- splits each upload into operations of `partSize` bytes on a presigned endpoint of its own (no Authorization
  allowed, the operation's headers required, the exact length), writes what it receives into STATE/received/, numbers
  versions, and moves states: AWAITING_UPLOAD -> PROCESSING at the commit -> COMPLETE or FAILED after `polls` GETs;
- derives each committed version's read-only `locale` and `platforms` from the pack manifest inside the archive (the
  BA packager stand-in writes AA01, a line, then the pack's JSON manifest), and at COMPLETE gives the version its
  internal beta release (READY_FOR_TESTING) and App Store release (PREPARE_FOR_SUBMISSION), served with `include`;
- serves review submissions: one READY_FOR_REVIEW submission per app and platform, items of COMPLETE versions for the
  submission's platform (a version in one unfinished submission at most), `submitted: true` -> WAITING_FOR_REVIEW,
  then App Review's decision after `review.polls` GETs of the submission;
- injects failures on demand from the config file (re-read when it changes): see `faults` below.

Usage: standin.py --state DIR --public-key PEM --key-id ID (--issuer ID | --individual) [--config FILE] [--port N]
(--port 0, the default: a free port; `make asc-standin` starts it by hand, docs/store.md#the-stand-in says how.)

Config (JSON): {"apps": [{"id", "bundleId"}], "assets": [{"assetPackIdentifier", "archived", "usedBytes",
"versions": [state, ...]}], "partSize": N, "pageSize": N, "processing": {"result": "COMPLETE"|"FAILED", "polls": N},
"faults": [{"method", "path" (regex searched in the path), "skip": N, "times": N, "kind": "status"|"drop"|"sleep"|
"hang"|"expire"|"redirect"|"huge"|"hugeHeaders", "status": N, "retryAfter": "S", "code": "...", "detail": "...",
"seconds": S, "bytes": N}],
"review": {"polls": N, "result": "COMPLETE"|"UNRESOLVED_ISSUES"|"CANCELING"|"COMPLETING", "items": "APPROVED"|
"ACCEPTED"|"REJECTED", "appStore": the App Store release state an approved version reaches},
"derived": {asset pack id: {"locale", "platforms"}} (what to derive instead of the archive's manifest),
"reset": TOKEN (a new token forgets every app, asset, version, submission and log line: one stand-in per suite)}.
Seeded assets may also give "locale" and "platforms" for their versions.
- "status" answers `status` with one error `code` whose detail is `detail` (default "injected by the stand-in").
- "hugeHeaders" answers 200 with header lines of `bytes` in all (default 300 KiB), then an empty JSON body.
- "redirect" answers `status` (301, 302, 303, 307, 308) with a Location on the trap: a second server on another port of
  127.0.0.1 that answers 200 to anything and logs what reached it ({"trap": true, "method", "path", "authorization":
  whether an Authorization header came, "bytes": the body's length}); a client that follows shows up there.
- "huge" answers 200 with a JSON body of `bytes` (default 20 MiB) streamed 1 MiB at a time, as a server that never
  ends would; a client that stops reading is logged with "aborted".
- "sleep" on a part waits `seconds` before reading its body (a slow part); "drop" reads it and closes the connection.
Every request is one JSON line in STATE/requests.log: method, path, query, status, rejected (why), fault, token.
Only 127.0.0.1 is served, and every loop is bounded.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
import uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

HERE = os.path.dirname(os.path.abspath(__file__))
# Apple's description, from this repository only (api/README.md says where it comes from).
DESCRIPTION = os.path.join(HERE, "api", "app-store-connect-api-4.4.1-background-assets.json")

LOCK = threading.RLock()
SECRET = os.urandom(16)


class Rejected(Exception):
    def __init__(self, status, code, detail):
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


# ---------------------------------------------------------------------------------------------------------------------
# Apple's description

class Description:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.routes = []
        for template, item in self.doc["paths"].items():
            pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "([^/]+)", re.escape(template)) + "$"
            self.routes.append((re.compile(pattern), template, item))

    def resolve(self, schema):
        while "$ref" in schema:
            name = schema["$ref"].split("/")[-1]
            extra = {k: v for k, v in schema.items() if k != "$ref"}
            schema = dict(self.doc["components"]["schemas"][name], **extra)
        return schema

    def operation(self, method, path):
        for pattern, template, item in self.routes:
            match = pattern.match(path)
            if match:
                op = item.get(method.lower())
                if op is None:
                    raise Rejected(405, "METHOD_NOT_ALLOWED", f"{method} is not allowed on {template}")
                params = list(item.get("parameters", [])) + list(op.get("parameters", []))
                return template, op, params, match.groups()
        raise Rejected(404, "NOT_FOUND", f"no path {path} in the description")

    def check_query(self, params, query, collection):
        declared = {p["name"]: p for p in params if p.get("in") == "query"}
        for name, parameter in declared.items():
            if parameter.get("required") and name not in query:
                raise Rejected(400, "PARAMETER_ERROR.REQUIRED", f"query parameter {name} is required")
        for name, values in query.items():
            if len(values) != 1:
                raise Rejected(400, "PARAMETER_ERROR.INVALID", f"query parameter {name} given {len(values)} times")
            value = values[0]
            if name == "cursor" and collection:
                continue
            if name not in declared:
                raise Rejected(400, "PARAMETER_ERROR.ILLEGAL", f"query parameter {name} is not allowed here")
            schema = self.resolve(declared[name]["schema"])
            if schema.get("type") == "array":
                items = self.resolve(schema["items"])
                for item in value.split(","):
                    if "enum" in items and item not in items["enum"]:
                        raise Rejected(400, "PARAMETER_ERROR.INVALID", f"{name}: '{item}' is not one of its values")
                    if item == "":
                        raise Rejected(400, "PARAMETER_ERROR.INVALID", f"{name}: an empty value")
            elif schema.get("type") == "integer":
                if not re.fullmatch(r"\d+", value) or ("maximum" in schema and int(value) > schema["maximum"]):
                    raise Rejected(400, "PARAMETER_ERROR.INVALID", f"{name}: '{value}' is not an allowed integer")
            elif schema.get("type") == "boolean":
                if value not in ("true", "false"):
                    raise Rejected(400, "PARAMETER_ERROR.INVALID", f"{name}: '{value}' is not a boolean")

    def check_value(self, schema, value, where):
        schema = self.resolve(schema)
        if value is None:
            if schema.get("nullable"):
                return
            raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.INVALID", f"{where} is null")
        if "oneOf" in schema:
            for option in schema["oneOf"]:
                try:
                    self.check_value(option, value, where)
                    return
                except Rejected:
                    pass
            raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.INVALID", f"{where} matches none of its shapes")
        kind = schema.get("type")
        if kind == "object" or "properties" in schema:
            if not isinstance(value, dict):
                raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.TYPE", f"{where} is not an object")
            properties = schema.get("properties", {})
            for name in schema.get("required", []):
                if name not in value:
                    raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", f"{where}.{name} is missing")
            for name, item in value.items():
                if name not in properties:
                    raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", f"{where}.{name} is not in the schema")
                self.check_value(properties[name], item, f"{where}.{name}")
        elif kind == "array":
            if not isinstance(value, list):
                raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.TYPE", f"{where} is not an array")
            for index, item in enumerate(value):
                self.check_value(schema.get("items", {}), item, f"{where}[{index}]")
        elif kind == "string":
            if not isinstance(value, str):
                raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.TYPE", f"{where} is not a string")
        elif kind == "integer":
            if not isinstance(value, int) or isinstance(value, bool):
                raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.TYPE", f"{where} is not an integer")
            if "minimum" in schema and value < schema["minimum"] or "maximum" in schema and value > schema["maximum"]:
                raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.INVALID", f"{where} is out of range")
        elif kind == "boolean":
            if not isinstance(value, bool):
                raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.TYPE", f"{where} is not a boolean")
        if "enum" in schema and value not in schema["enum"]:
            raise Rejected(422, "ENTITY_ERROR.ATTRIBUTE.INVALID", f"{where} '{value}' is not one of {schema['enum']}")


# ---------------------------------------------------------------------------------------------------------------------
# The service

class Service:
    def __init__(self, args):
        self.args = args
        self.description = Description(DESCRIPTION)
        with open(args.public_key, "rb") as f:
            self.public_key = serialization.load_pem_public_key(f.read())
        self.config_path = args.config
        self.config_stamp = None
        self.config = {}
        self.fault_counts = {}
        self.apps = {}
        self.assets = {}
        self.versions = {}
        self.files = {}
        self.releases = {}
        self.submissions = {}
        self.items = {}
        self.reset_token = None
        self.next_id = 1000
        os.makedirs(os.path.join(args.state, "received"), exist_ok=True)
        self.log_path = os.path.join(args.state, "requests.log")
        self.reload()

    def new_id(self):
        self.next_id += 1
        return str(self.next_id)

    def reload(self):
        if not self.config_path:
            return
        try:
            info = os.stat(self.config_path)
        except FileNotFoundError:
            return
        stamp = (info.st_ino, info.st_mtime_ns, info.st_size)
        if stamp == self.config_stamp:
            return
        first = self.config_stamp is None
        self.config_stamp = stamp
        with open(self.config_path) as f:
            self.config = json.load(f)
        if not first and self.config.get("reset") != self.reset_token:
            # A test of a suite that shares this stand-in starts afresh: nothing of the previous one is left.
            self.apps, self.assets, self.versions, self.files = {}, {}, {}, {}
            self.releases, self.submissions, self.items, self.fault_counts = {}, {}, {}, {}
            open(self.log_path, "w").close()
            for name in os.listdir(os.path.join(self.args.state, "received")):
                os.remove(os.path.join(self.args.state, "received", name))
            first = True
        self.reset_token = self.config.get("reset")
        for app in self.config.get("apps", []):
            self.apps.setdefault(app["id"], app["bundleId"])
        if first:
            app = next(iter(self.apps), None)
            for seed in self.config.get("assets", []):
                asset = self.new_id()
                self.assets[asset] = {"app": seed.get("app", app), "identifier": seed["assetPackIdentifier"],
                                      "archived": seed.get("archived", False), "usedBytes": seed.get("usedBytes", 0),
                                      "created": now_text()}
                for state in seed.get("versions", []):
                    version = self.new_version(asset, state)
                    self.versions[version]["platforms"] = seed.get("platforms", ["IOS"])
                    self.versions[version]["locale"] = seed.get("locale")
                    if state == "COMPLETE":
                        self.complete(version, count_bytes=False)

    def new_version(self, asset, state="AWAITING_UPLOAD"):
        number = 1 + max([int(v["version"]) for v in self.versions.values() if v["asset"] == asset] or [0])
        version = self.new_id()
        self.versions[version] = {"asset": asset, "version": str(number), "state": state, "polls": 0, "file": None,
                                  "sha256": None, "locale": None, "platforms": ["IOS"]}
        return version

    def complete(self, version_id, count_bytes=True):
        """A version App Store Connect has processed: its releases exist (internal beta READY_FOR_TESTING, made when
        import validation succeeds; App Store PREPARE_FOR_SUBMISSION), and it counts against the quota."""
        version = self.versions[version_id]
        version["state"] = "COMPLETE"
        internal, store = self.new_id(), self.new_id()
        self.releases[internal] = {"kind": "backgroundAssetVersionInternalBetaReleases", "version": version_id,
                                   "state": "READY_FOR_TESTING"}
        self.releases[store] = {"kind": "backgroundAssetVersionAppStoreReleases", "version": version_id,
                                "state": "PREPARE_FOR_SUBMISSION"}
        version["internalBeta"], version["appStore"] = internal, store
        if count_bytes and version.get("file"):
            asset = self.assets[version["asset"]]
            asset["usedBytes"] = max(asset["usedBytes"], self.files[version["file"]]["fileSize"])

    def release_state(self, version_id, state):
        store = self.versions[version_id].get("appStore")
        if store:
            self.releases[store]["state"] = state

    def derive(self, version_id, received):
        """What App Store Connect reads of the pack manifest inside the archive: `language` as `locale`, `platforms`
        as its Platform values. The BA packager stand-in writes AA01, a line, then the manifest; config `derived`
        ({asset pack id: {"locale", "platforms"}}) makes it derive something else."""
        version = self.versions[version_id]
        locale, platforms = None, ["IOS"]
        try:
            with open(received, "rb") as f:
                head = f.read(1 << 20).decode("utf-8", "replace")
            text = head[head.index("\n") + 1:]
            manifest, _ = json.JSONDecoder().raw_decode(text)
            locale = manifest.get("language")
            names = {"ios": "IOS", "macos": "MAC_OS", "tvos": "TV_OS", "visionos": "VISION_OS"}
            platforms = [names.get(str(p).lower(), str(p)) for p in manifest.get("platforms", ["iOS"])]
        except (ValueError, AttributeError, OSError):
            pass
        override = self.config.get("derived", {}).get(self.assets[version["asset"]]["identifier"], {})
        version["locale"] = override.get("locale", locale)
        version["platforms"] = override.get("platforms", platforms)

    def log(self, entry):
        with open(self.log_path, "a") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")

    def fault(self, method, path):
        """The first fault due for this request; every fault that matches it counts it, due or not."""
        due = None
        for index, fault in enumerate(self.config.get("faults", [])):
            if fault.get("method", method) != method or not re.search(fault.get("path", ""), path):
                continue
            key = (index, json.dumps(fault, sort_keys=True))
            seen = self.fault_counts.get(key, 0)
            self.fault_counts[key] = seen + 1
            skip = fault.get("skip", 0)
            if due is None and skip <= seen < skip + fault.get("times", 1):
                due = fault
        return due

    # JWT (docs: ES256, kid, typ JWT; iss or sub=user; aud appstoreconnect-v1; at most 20 minutes)
    def verify_token(self, header):
        if not header or not header.startswith("Bearer "):
            raise Rejected(401, "NOT_AUTHORIZED", "no bearer token")
        token = header[len("Bearer "):]
        parts = token.split(".")
        if len(parts) != 3:
            raise Rejected(401, "NOT_AUTHORIZED", "not a JWT")
        try:
            head = json.loads(b64url(parts[0]))
            claims = json.loads(b64url(parts[1]))
            signature = b64url(parts[2])
        except Exception:
            raise Rejected(401, "NOT_AUTHORIZED", "JWT parts are not base64url JSON")
        if head != {"alg": "ES256", "kid": self.args.key_id, "typ": "JWT"}:
            raise Rejected(401, "NOT_AUTHORIZED", f"JWT header {head}")
        now = int(time.time())
        expected = {"iat", "exp", "aud"} | ({"sub"} if self.args.individual else {"iss"})
        if set(claims) != expected:
            raise Rejected(401, "NOT_AUTHORIZED", f"JWT claims {sorted(claims)}, expected {sorted(expected)}")
        if claims["aud"] != "appstoreconnect-v1":
            raise Rejected(401, "NOT_AUTHORIZED", "aud")
        if self.args.individual and claims["sub"] != "user" or not self.args.individual and claims["iss"] != self.args.issuer:
            raise Rejected(401, "NOT_AUTHORIZED", "iss/sub")
        if not isinstance(claims["iat"], int) or not isinstance(claims["exp"], int) or claims["exp"] - claims["iat"] > 1200 \
                or claims["exp"] <= now or claims["iat"] > now + 60:
            raise Rejected(401, "NOT_AUTHORIZED", "iat/exp")
        if len(signature) != 64:
            raise Rejected(401, "NOT_AUTHORIZED", "the signature is not raw r||s")
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            self.public_key.verify(der, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise Rejected(401, "NOT_AUTHORIZED", "bad signature")
        return hashlib.sha256(token.encode()).hexdigest()[:12]


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def now_text(delta=0):
    return (datetime.now(timezone.utc) + timedelta(seconds=delta)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def errors(status, code, detail):
    return {"errors": [{"id": str(uuid.uuid4()), "status": str(status), "code": code, "title": code, "detail": detail}]}


# ---------------------------------------------------------------------------------------------------------------------
# HTTP

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "standin"

    def log_message(self, *args):
        pass

    def do_GET(self): self.handle_any("GET")
    def do_POST(self): self.handle_any("POST")
    def do_PATCH(self): self.handle_any("PATCH")
    def do_PUT(self): self.handle_any("PUT")
    def do_DELETE(self): self.handle_any("DELETE")

    def read_body(self, sink=None):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
            if sink:
                sink(0, bytes(data))
                return len(data)
            return bytes(data)
        length = int(self.headers.get("Content-Length") or 0)
        if sink is None:
            return self.rfile.read(length)
        done = 0
        while done < length:
            chunk = self.rfile.read(min(1 << 20, length - done))
            if not chunk:
                break
            sink(done, chunk)
            done += len(chunk)
        return done

    def reply(self, status, document=None, headers=None):
        body = b"" if document is None else json.dumps(document).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if document is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self, method):
        service = self.server.service
        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path
        query = urllib.parse.parse_qs(parsed.query, keep_blank_values=True)
        entry = {"method": method, "path": path, "query": {k: v[0] for k, v in query.items()}, "time": time.time()}
        with LOCK:
            service.reload()
            fault = service.fault(method, path)
            # The test this request belongs to, in a suite that shares the stand-in (`reset`).
            epoch = service.reset_token
        if fault:
            entry["fault"] = fault.get("kind")
        try:
            if path.startswith("/upload/"):
                status = self.handle_part(service, method, path, query, entry, fault)
            else:
                status = self.handle_api(service, method, path, query, entry, fault)
        except Rejected as rejected:
            entry["rejected"] = rejected.detail
            status = rejected.status
            try:
                self.reply(status, errors(status, rejected.code, rejected.detail))
            except OSError:
                pass
        except (ConnectionError, socket.timeout) as error:
            entry["dropped"] = str(error)
            status = 0
        entry["status"] = status
        with LOCK:
            # A request of a test that has ended (a hang outliving the client its test killed) is not logged into the
            # next test's log: the config is read again first, so a reset since the request arrived is seen.
            service.reload()
            if service.reset_token == epoch:
                service.log(entry)

    def apply_fault(self, fault, entry):
        """Before the request is served: a failure instead of its answer, or a delay. True when it answered."""
        if not fault or fault.get("kind") == "expire":
            return False
        kind = fault["kind"]
        if kind == "status":
            status = fault.get("status", 503)
            headers = {"Retry-After": fault["retryAfter"]} if "retryAfter" in fault else {}
            detail = fault.get("detail", "injected by the stand-in")
            self.reply(status, errors(status, fault.get("code", "STANDIN_FAULT"), detail), headers)
            entry["status"] = status
            return True
        if kind == "drop":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return True
        if kind == "sleep":
            time.sleep(fault.get("seconds", 2))
            return False
        if kind == "redirect":
            status = fault.get("status", 307)
            location = f"http://127.0.0.1:{self.server.service.trap_port}{self.path}"
            self.reply(status, None, {"Location": location})
            entry["status"] = status
            entry["location"] = location
            return True
        if kind == "hugeHeaders":
            total = min(int(fault.get("bytes", 300 << 10)), 16 << 20)
            self.send_response(200)
            line = "x" * 1000
            try:
                for index in range(total // 1024 + 1):
                    self.send_header(f"X-Pad-{index}", line)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")
            except (BrokenPipeError, ConnectionResetError):
                entry["aborted"] = True
            entry["status"] = 200
            self.close_connection = True
            return True
        if kind == "huge":
            total = min(int(fault.get("bytes", 20 << 20)), 4 << 30)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(total))
            self.end_headers()
            chunk = b" " * (1 << 20)
            sent = 0
            try:
                for _ in range(total // len(chunk) + 1):
                    if sent >= total:
                        break
                    piece = chunk[:min(len(chunk), total - sent)]
                    self.wfile.write(piece)
                    sent += len(piece)
            except (BrokenPipeError, ConnectionResetError):
                entry["aborted"] = True
            entry["status"] = 200
            entry["sentBytes"] = sent
            self.close_connection = True
            return True
        if kind == "hang":
            with LOCK:
                self.server.service.log({"event": "hang", "path": entry["path"], "time": time.time()})
            time.sleep(fault.get("seconds", 30))
            self.close_connection = True
            return True
        return False

    # The API --------------------------------------------------------------------------------------------------------

    def handle_api(self, service, method, path, query, entry, fault):
        template, op, params, ids = service.description.operation(method, path)
        agent = self.headers.get("User-Agent", "")
        if not re.fullmatch(r"odrpack/\d+\.\d+\.\d+\S*", agent):
            raise Rejected(400, "STANDIN.USER_AGENT", f"User-Agent '{agent}' is not odrpack/<version>")
        body = self.read_body()
        entry["token"] = service.verify_token(self.headers.get("Authorization"))
        collection = op.get("responses", {}).get("200", {}).get("content", {}).get("application/json", {}) \
            .get("schema", {}).get("$ref", "").endswith("sResponse")
        service.description.check_query(params, query, collection)
        document = None
        if "requestBody" in op:
            if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
                raise Rejected(415, "STANDIN.CONTENT_TYPE", "a body without Content-Type: application/json")
            try:
                document = json.loads(body)
            except ValueError:
                raise Rejected(400, "PARAMETER_ERROR.INVALID", "the body is not JSON")
            schema = op["requestBody"]["content"]["application/json"]["schema"]
            service.description.check_value(schema, document, "body")
            entry["body"] = document
        elif body:
            raise Rejected(400, "PARAMETER_ERROR.INVALID", f"{method} {template} takes no body")
        if self.apply_fault(fault, entry):
            return entry.get("status", 0)
        with LOCK:
            status, answer = self.serve(service, method, template, ids, query, document, fault)
        self.reply(status, answer)
        return status

    def page(self, resources, query, limit_default=50):
        page_size = min(int(query.get("limit", [limit_default])[0]), self.server.service.config.get("pageSize", 200))
        start = int(query.get("cursor", ["0"])[0])
        chunk = resources[start:start + page_size]
        links = {"self": self.base() + self.path}
        if start + page_size < len(resources):
            parsed = urllib.parse.urlsplit(self.path)
            params = [(k, v) for k, v in urllib.parse.parse_qsl(parsed.query) if k != "cursor"]
            params.append(("cursor", str(start + page_size)))
            links["next"] = self.base() + parsed.path + "?" + urllib.parse.urlencode(params)
        return {"data": chunk, "links": links,
                "meta": {"paging": {"total": len(resources), "limit": page_size}}}

    def base(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def asset_resource(self, asset_id):
        asset = self.server.service.assets[asset_id]
        return {"type": "backgroundAssets", "id": asset_id,
                "attributes": {"archived": asset["archived"], "assetPackIdentifier": asset["identifier"],
                               "createdDate": asset["created"], "usedBytes": asset["usedBytes"]},
                "links": {"self": f"{self.base()}/v1/backgroundAssets/{asset_id}"}}

    def version_resource(self, version_id, query=None):
        version = self.server.service.versions[version_id]
        details = {"errors": [], "warnings": [], "infos": []}
        if version["state"] == "FAILED":
            details["errors"] = [{"code": "STANDIN.INVALID_ARCHIVE", "description": "the archive is not an Apple Archive"}]
        attributes = {"createdDate": now_text(), "platforms": version["platforms"], "state": version["state"],
                      "stateDetails": details, "version": version["version"]}
        if version.get("locale") is not None:
            attributes["locale"] = version["locale"]
        relationships = {"backgroundAsset": {"data": {"type": "backgroundAssets", "id": version["asset"]}}}
        # As App Store Connect: a relationship's data only when the request includes it.
        include = (query or {}).get("include", [""])[0].split(",")
        for name, key, kind in (("internalBetaRelease", "internalBeta", "backgroundAssetVersionInternalBetaReleases"),
                                ("appStoreRelease", "appStore", "backgroundAssetVersionAppStoreReleases")):
            if name in include:
                relationships[name] = {"data": {"type": kind, "id": version[key]} if version.get(key) else None}
        return {"type": "backgroundAssetVersions", "id": version_id, "attributes": attributes,
                "relationships": relationships,
                "links": {"self": f"{self.base()}/v1/backgroundAssetVersions/{version_id}"}}

    def release_resource(self, release_id):
        release = self.server.service.releases[release_id]
        return {"type": release["kind"], "id": release_id, "attributes": {"state": release["state"]},
                "links": {"self": f"{self.base()}/v1/{release['kind']}/{release_id}"}}

    def with_included(self, document, version_ids, query):
        include = query.get("include", [""])[0].split(",")
        included = []
        for version_id in version_ids:
            version = self.server.service.versions[version_id]
            for name, key in (("internalBetaRelease", "internalBeta"), ("appStoreRelease", "appStore")):
                if name in include and version.get(key):
                    included.append(self.release_resource(version[key]))
        if included:
            document["included"] = included
        return document

    def submission_resource(self, submission_id):
        submission = self.server.service.submissions[submission_id]
        attributes = {"platform": submission["platform"], "state": submission["state"]}
        if submission.get("submittedDate"):
            attributes["submittedDate"] = submission["submittedDate"]
        return {"type": "reviewSubmissions", "id": submission_id, "attributes": attributes,
                "relationships": {"app": {"data": {"type": "apps", "id": submission["app"]}}},
                "links": {"self": f"{self.base()}/v1/reviewSubmissions/{submission_id}"}}

    def item_resource(self, item_id, query=None):
        item = self.server.service.items[item_id]
        relationships = {}
        if "backgroundAssetVersion" in (query or {}).get("include", [""])[0].split(","):
            relationships["backgroundAssetVersion"] = {"data": {"type": "backgroundAssetVersions",
                                                                "id": item["version"]}}
        return {"type": "reviewSubmissionItems", "id": item_id, "attributes": {"state": item["state"]},
                "relationships": relationships,
                "links": {"self": f"{self.base()}/v1/reviewSubmissionItems/{item_id}"}}

    def review(self, service, submission_id):
        """A submitted submission's way through App Review, steered by config `review`: {"polls": N (GETs of it
        before the decision, default 1), "result": "COMPLETE"|"UNRESOLVED_ISSUES", "items": "APPROVED"|"ACCEPTED"|
        "REJECTED", "appStore": the App Store release state an approved version reaches (READY_FOR_DISTRIBUTION)};
        "CANCELING"/"COMPLETING" as result stay so (a submission App Store Connect is still winding up)."""
        submission = service.submissions[submission_id]
        if submission["state"] not in ("WAITING_FOR_REVIEW", "IN_REVIEW", "CANCELING", "COMPLETING"):
            return
        review = service.config.get("review", {})
        submission["polls"] += 1
        if submission["polls"] < review.get("polls", 1):
            submission["state"] = "IN_REVIEW"
            return
        result = review.get("result", "COMPLETE")
        submission["state"] = result
        if result in ("CANCELING", "COMPLETING"):
            return
        verdict = review.get("items", "APPROVED" if result == "COMPLETE" else "REJECTED")
        for item_id in submission["items"]:
            item = service.items[item_id]
            item["state"] = verdict
            approved = verdict in ("APPROVED", "ACCEPTED")
            service.release_state(item["version"],
                                  review.get("appStore", "READY_FOR_DISTRIBUTION") if approved else "REJECTED")

    def serve_review(self, service, method, template, ids, query, body):
        single = lambda data: {"data": data, "links": {"self": self.base() + self.path}}
        if (method, template) in (("GET", "/v1/apps/{id}/reviewSubmissions"), ("GET", "/v1/reviewSubmissions")):
            app = ids[0] if ids else query["filter[app]"][0]
            if app not in service.apps:
                raise Rejected(404, "NOT_FOUND", f"no app {app}")
            platforms = query.get("filter[platform]", [None])[0]
            states = query.get("filter[state]", [None])[0]
            found = [self.submission_resource(i) for i, sub in service.submissions.items()
                     if sub["app"] == app and (platforms is None or sub["platform"] in platforms.split(","))
                     and (states is None or sub["state"] in states.split(","))]
            return 200, self.page(found, query)
        if (method, template) == ("POST", "/v1/reviewSubmissions"):
            data = body["data"]
            app = data["relationships"]["app"]["data"]["id"]
            platform = (data.get("attributes") or {}).get("platform")
            if app not in service.apps:
                raise Rejected(404, "NOT_FOUND", f"no app {app}")
            if platform is None:
                raise Rejected(409, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "a submission needs its platform")
            if any(sub["app"] == app and sub["platform"] == platform and sub["state"] == "READY_FOR_REVIEW"
                   for sub in service.submissions.values()):
                raise Rejected(409, "ENTITY_ERROR.STATE", f"the app has an open {platform} submission: add to it")
            submission = service.new_id()
            service.submissions[submission] = {"app": app, "platform": platform, "state": "READY_FOR_REVIEW",
                                               "items": [], "polls": 0}
            return 201, single(self.submission_resource(submission))
        if template == "/v1/reviewSubmissions/{id}":
            if ids[0] not in service.submissions:
                raise Rejected(404, "NOT_FOUND", f"no review submission {ids[0]}")
            submission = service.submissions[ids[0]]
            if method == "GET":
                self.review(service, ids[0])
                return 200, single(self.submission_resource(ids[0]))
            data = body["data"]
            if data["type"] != "reviewSubmissions" or data["id"] != ids[0]:
                raise Rejected(409, "ENTITY_ERROR.INCLUDED.INVALID_ID", "the body's id is not the path's")
            if data.get("attributes") != {"submitted": True}:
                raise Rejected(403, "STANDIN.FORBIDDEN", f"odrpack only submits: attributes {data.get('attributes')}")
            if submission["state"] != "READY_FOR_REVIEW":
                raise Rejected(409, "ENTITY_ERROR.STATE", f"the submission is {submission['state']}")
            if not submission["items"]:
                raise Rejected(409, "ENTITY_ERROR.STATE", "the submission has no items")
            submission["state"] = "WAITING_FOR_REVIEW"
            submission["submittedDate"] = now_text()
            for item_id in submission["items"]:
                service.release_state(service.items[item_id]["version"], "WAITING_FOR_REVIEW")
            service.log({"event": "submitted", "submission": ids[0], "time": time.time()})
            return 200, single(self.submission_resource(ids[0]))
        if (method, template) == ("GET", "/v1/reviewSubmissions/{id}/items"):
            if ids[0] not in service.submissions:
                raise Rejected(404, "NOT_FOUND", f"no review submission {ids[0]}")
            listed = [self.item_resource(i, query) for i in service.submissions[ids[0]]["items"]]
            return 200, self.page(listed, query)
        if (method, template) == ("POST", "/v1/reviewSubmissionItems"):
            relationships = body["data"].get("relationships", {})
            if set(relationships) != {"reviewSubmission", "backgroundAssetVersion"}:
                raise Rejected(409, "ENTITY_ERROR.RELATIONSHIP.INVALID",
                               f"relationships {sorted(relationships)}: a pack version's item has the submission and "
                               "backgroundAssetVersion only")
            submission_id = relationships["reviewSubmission"]["data"]["id"]
            version_id = relationships["backgroundAssetVersion"]["data"]["id"]
            submission = service.submissions.get(submission_id)
            version = service.versions.get(version_id)
            if submission is None or version is None:
                raise Rejected(404, "NOT_FOUND", "no such submission or version")
            if submission["state"] != "READY_FOR_REVIEW":
                raise Rejected(409, "ENTITY_ERROR.STATE", f"the submission is {submission['state']}")
            if version["state"] != "COMPLETE":
                raise Rejected(409, "ENTITY_ERROR.STATE", f"version {version_id} is {version['state']}")
            if submission["platform"] not in version["platforms"]:
                raise Rejected(409, "ENTITY_ERROR.RELATIONSHIP.INVALID",
                               f"version {version_id} is not for {submission['platform']}")
            for other in service.submissions.values():
                if other["state"] != "COMPLETE" and any(service.items[i]["version"] == version_id
                                                        for i in other["items"]):
                    raise Rejected(409, "ENTITY_ERROR.RELATIONSHIP.INVALID",
                                   f"version {version_id} is already in a submission")
            item = service.new_id()
            service.items[item] = {"submission": submission_id, "version": version_id, "state": "READY_FOR_REVIEW"}
            submission["items"].append(item)
            service.release_state(version_id, "READY_FOR_REVIEW")
            service.log({"event": "item", "item": item, "submission": submission_id, "version": version_id,
                         "time": time.time()})
            return 201, single(self.item_resource(item))
        if method == "GET" and template in ("/v1/backgroundAssetVersionAppStoreReleases/{id}",
                                            "/v1/backgroundAssetVersionInternalBetaReleases/{id}"):
            if ids[0] not in service.releases:
                raise Rejected(404, "NOT_FOUND", f"no release {ids[0]}")
            return 200, single(self.release_resource(ids[0]))
        return None

    def file_resource(self, file_id):
        upload = self.server.service.files[file_id]
        operations = [{"method": "PUT", "url": op["url"], "length": op["length"], "offset": op["offset"],
                       "requestHeaders": [{"name": "Content-Type", "value": "application/octet-stream"}],
                       "expiration": op["expiration"], "partNumber": op["partNumber"]}
                      for op in upload["operations"]]
        return {"type": "backgroundAssetUploadFiles", "id": file_id,
                "attributes": {"assetDeliveryState": {"errors": [], "warnings": [], "state": upload["state"]},
                               "assetToken": f"token-{file_id}", "assetType": upload["assetType"],
                               "fileName": upload["fileName"], "fileSize": upload["fileSize"],
                               "uploadOperations": operations},
                "links": {"self": f"{self.base()}/v1/backgroundAssetUploadFiles/{file_id}"}}

    def serve(self, service, method, template, ids, query, body, fault):
        single = lambda data: {"data": data, "links": {"self": self.base() + self.path}}
        answered = self.serve_review(service, method, template, ids, query, body)
        if answered is not None:
            return answered
        if (method, template) == ("GET", "/v1/apps"):
            wanted = query.get("filter[bundleId]", [None])[0]
            apps = [{"type": "apps", "id": app, "attributes": {"bundleId": bundle}}
                    for app, bundle in sorted(service.apps.items()) if wanted is None or bundle in wanted.split(",")]
            return 200, self.page(apps, query)
        if (method, template) == ("GET", "/v1/apps/{id}/backgroundAssets"):
            if ids[0] not in service.apps:
                raise Rejected(404, "NOT_FOUND", f"no app {ids[0]}")
            wanted = query.get("filter[assetPackIdentifier]", [None])[0]
            assets = [self.asset_resource(a) for a, asset in service.assets.items()
                      if asset["app"] == ids[0] and (wanted is None or asset["identifier"] in wanted.split(","))]
            return 200, self.page(assets, query)
        if (method, template) == ("POST", "/v1/backgroundAssets"):
            data = body["data"]
            app = data["relationships"]["app"]["data"]["id"]
            identifier = data["attributes"]["assetPackIdentifier"]
            if app not in service.apps:
                raise Rejected(404, "NOT_FOUND", f"no app {app}")
            if not re.fullmatch(r"[A-Za-z0-9-]+", identifier):
                raise Rejected(409, "-19241 PARAMETER_ERROR", f"asset pack identifier '{identifier}' is not allowed")
            if any(a["identifier"] == identifier and a["app"] == app for a in service.assets.values()):
                raise Rejected(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", f"'{identifier}' exists")
            asset = service.new_id()
            service.assets[asset] = {"app": app, "identifier": identifier, "archived": False, "usedBytes": 0,
                                     "created": now_text()}
            return 201, single(self.asset_resource(asset))
        if (method, template) == ("GET", "/v1/backgroundAssets/{id}/versions"):
            if ids[0] not in service.assets:
                raise Rejected(404, "NOT_FOUND", f"no background asset {ids[0]}")
            versions = [v for v, version in service.versions.items() if version["asset"] == ids[0]]
            versions.sort(key=lambda v: int(service.versions[v]["version"]),
                          reverse=query.get("sort", [""])[0] == "-version")
            listed = self.page([self.version_resource(v, query) for v in versions], query)
            return 200, self.with_included(listed, [v["id"] for v in listed["data"]], query)
        if (method, template) == ("POST", "/v1/backgroundAssetVersions"):
            asset = body["data"]["relationships"]["backgroundAsset"]["data"]["id"]
            if asset not in service.assets:
                raise Rejected(404, "NOT_FOUND", f"no background asset {asset}")
            if service.assets[asset]["archived"]:
                raise Rejected(409, "ENTITY_ERROR.STATE", "the background asset is archived")
            return 201, single(self.version_resource(service.new_version(asset)))
        if (method, template) == ("GET", "/v1/backgroundAssetVersions/{id}"):
            version = service.versions.get(ids[0])
            if version is None:
                raise Rejected(404, "NOT_FOUND", f"no version {ids[0]}")
            if version["state"] == "PROCESSING":
                version["polls"] += 1
                processing = service.config.get("processing", {})
                if version["polls"] >= processing.get("polls", 1):
                    if processing.get("result", "COMPLETE") == "COMPLETE":
                        service.complete(ids[0])
                    else:
                        version["state"] = processing["result"]
            return 200, self.with_included(single(self.version_resource(ids[0], query)), [ids[0]], query)
        if (method, template) == ("POST", "/v1/backgroundAssetUploadFiles"):
            data = body["data"]
            version_id = data["relationships"]["backgroundAssetVersion"]["data"]["id"]
            version = service.versions.get(version_id)
            if version is None:
                raise Rejected(404, "NOT_FOUND", f"no version {version_id}")
            if version["state"] != "AWAITING_UPLOAD":
                raise Rejected(409, "ENTITY_ERROR.STATE", f"version {version_id} is {version['state']}")
            attributes = data["attributes"]
            if not attributes["fileName"].endswith(".aar"):
                raise Rejected(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", "fileName must end in .aar")
            file_id = service.new_id()
            size = attributes["fileSize"]
            part = service.config.get("partSize", 5 * 1024 * 1024)
            expiration = now_text(-60 if fault and fault.get("kind") == "expire" else 3600)
            operations = []
            for number, offset in enumerate(range(0, size, part), start=1):
                length = min(part, size - offset)
                signature = hmac.new(SECRET, f"{file_id}/{number}/{expiration}".encode(), "sha256").hexdigest()
                url = f"{self.base()}/upload/{file_id}/{number}?X-Amz-Expires={urllib.parse.quote(expiration)}&X-Amz-Signature={signature}"
                operations.append({"url": url, "offset": offset, "length": length, "expiration": expiration,
                                   "partNumber": number, "received": 0})
            service.files[file_id] = {"version": version_id, "fileName": attributes["fileName"], "fileSize": size,
                                      "assetType": attributes["assetType"], "state": "AWAITING_UPLOAD",
                                      "operations": operations}
            version["file"] = file_id
            open(os.path.join(service.args.state, "received", file_id), "wb").close()
            return 201, single(self.file_resource(file_id))
        if (method, template) == ("GET", "/v1/backgroundAssetUploadFiles/{id}"):
            if ids[0] not in service.files:
                raise Rejected(404, "NOT_FOUND", f"no upload file {ids[0]}")
            return 200, single(self.file_resource(ids[0]))
        if (method, template) == ("PATCH", "/v1/backgroundAssetUploadFiles/{id}"):
            upload = service.files.get(ids[0])
            if upload is None:
                raise Rejected(404, "NOT_FOUND", f"no upload file {ids[0]}")
            data = body["data"]
            if data["type"] != "backgroundAssetUploadFiles" or data["id"] != ids[0]:
                raise Rejected(409, "ENTITY_ERROR.INCLUDED.INVALID_ID", "the body's id is not the path's")
            if data.get("attributes") != {"uploaded": True}:
                raise Rejected(409, "ENTITY_ERROR.ATTRIBUTE.INVALID", f"attributes {data.get('attributes')}")
            missing = [op["partNumber"] for op in upload["operations"] if op["received"] < 1]
            if missing:
                raise Rejected(409, "ENTITY_ERROR.UPLOAD_INCOMPLETE", f"parts {missing} were never received")
            version = service.versions[upload["version"]]
            if version["file"] != ids[0]:
                raise Rejected(409, "ENTITY_ERROR.STATE", "not the version's latest upload file")
            if version["state"] != "AWAITING_UPLOAD":
                raise Rejected(409, "ENTITY_ERROR.STATE", f"the version is {version['state']}")
            digest = hashlib.sha256()
            with open(os.path.join(service.args.state, "received", ids[0]), "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    digest.update(chunk)
            version["sha256"] = digest.hexdigest()
            version["state"] = "PROCESSING"
            upload["state"] = "UPLOAD_COMPLETE"
            service.derive(upload["version"], os.path.join(service.args.state, "received", ids[0]))
            service.log({"event": "commit", "asset": service.assets[version["asset"]]["identifier"],
                         "version": version["version"], "sha256": version["sha256"], "uploadFile": ids[0]})
            return 200, single(self.file_resource(ids[0]))
        raise Rejected(403, "STANDIN.FORBIDDEN", f"{method} {template} is allowed by the description but odrpack must never send it")

    # The presigned endpoint -----------------------------------------------------------------------------------------

    def handle_part(self, service, method, path, query, entry, fault):
        match = re.fullmatch(r"/upload/(\d+)/(\d+)", path)
        with LOCK:
            upload = service.files.get(match.group(1)) if match else None
        if upload is None:
            self.read_body()
            raise Rejected(404, "NOT_FOUND", "no such upload")
        number = int(match.group(2))
        op = upload["operations"][number - 1]
        expected = hmac.new(SECRET, f"{match.group(1)}/{number}/{op['expiration']}".encode(), "sha256").hexdigest()
        if query.get("X-Amz-Signature", [""])[0] != expected:
            self.read_body()
            raise Rejected(403, "SignatureDoesNotMatch", "the presigned URL was changed")
        if "Authorization" in self.headers:
            self.read_body()
            raise Rejected(400, "STANDIN.AUTHORIZATION", "a presigned request must carry no Authorization header")
        if method != "PUT" or self.headers.get("Content-Type") != "application/octet-stream":
            self.read_body()
            raise Rejected(400, "STANDIN.HEADERS", f"{method} with Content-Type {self.headers.get('Content-Type')}")
        if not re.fullmatch(r"odrpack/\d+\.\d+\.\d+\S*", self.headers.get("User-Agent", "")):
            self.read_body()
            raise Rejected(400, "STANDIN.USER_AGENT", "User-Agent is not odrpack/<version>")
        length = int(self.headers.get("Content-Length") or -1)
        if length != op["length"]:
            self.read_body()
            raise Rejected(400, "STANDIN.LENGTH", f"part {number} is {length} bytes, not {op['length']}")
        if datetime.now(timezone.utc) >= datetime.fromisoformat(op["expiration"].replace("Z", "+00:00")):
            self.read_body()
            raise Rejected(403, "AccessDenied", "Request has expired")
        entry["part"] = number
        entry["uploadFile"] = match.group(1)
        if fault and fault.get("kind") == "sleep":
            self.apply_fault(fault, entry)
        elif fault and fault.get("kind") in ("status", "hang", "redirect", "huge"):
            self.read_body()
            if self.apply_fault(fault, entry):
                return entry.get("status", 0)
        target = os.path.join(service.args.state, "received", match.group(1))
        descriptor = os.open(target, os.O_WRONLY)
        try:
            written = self.read_body(lambda at, chunk: os.pwrite(descriptor, chunk, op["offset"] + at))
        finally:
            os.close(descriptor)
        if fault and fault.get("kind") == "drop":
            self.apply_fault(fault, entry)
            return 0
        if written != op["length"]:
            raise ConnectionError("the part ended early")
        with LOCK:
            op["received"] += 1
        entry["bytes"] = written
        self.reply(200, None, {"ETag": f"\"{number}\""})
        return 200


class TrapHandler(BaseHTTPRequestHandler):
    """Another origin (127.0.0.1, another port): where a redirect points. It answers 200 to anything, so that a client
    that follows a redirect would count a part as sent, and logs whether the API key's token came with the request."""
    protocol_version = "HTTP/1.1"
    server_version = "standin-trap"

    def log_message(self, *args):
        pass

    def handle_any(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        received = 0
        while received < length:
            chunk = self.rfile.read(min(1 << 20, length - received))
            if not chunk:
                break
            received += len(chunk)
        entry = {"trap": True, "method": method, "path": urllib.parse.urlsplit(self.path).path,
                 "authorization": "Authorization" in self.headers, "bytes": received, "time": time.time()}
        with LOCK:
            self.server.service.log(entry)
        body = json.dumps({"data": []}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self): self.handle_any("GET")
    def do_POST(self): self.handle_any("POST")
    def do_PATCH(self): self.handle_any("PATCH")
    def do_PUT(self): self.handle_any("PUT")
    def do_DELETE(self): self.handle_any("DELETE")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--state", required=True)
    parser.add_argument("--public-key", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--issuer")
    parser.add_argument("--individual", action="store_true")
    parser.add_argument("--config")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    service = Service(args)
    trap = ThreadingHTTPServer(("127.0.0.1", 0), TrapHandler)
    trap.daemon_threads = True
    trap.service = service
    service.trap_port = trap.server_address[1]
    threading.Thread(target=trap.serve_forever, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.service = service
    print(f"port {server.server_address[1]}", flush=True)
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
    server.serve_forever()


def exit_with_parent(parent):
    """A suite's shared stand-in is never stopped by its test process, which exits without running deinit: it
    stops itself once that process is gone (its parent changes)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


if __name__ == "__main__":
    main()
