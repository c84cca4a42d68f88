"""Just enough of Cassandra's native protocol (v4) to read a keyspace's replication: the test reads
back what the service created, without a driver to install."""
import socket
import struct

VERSION = 0x04
STARTUP, READY, QUERY, RESULT, ERROR = 0x01, 0x02, 0x07, 0x08, 0x00
ROWS = 0x0002
ONE = 0x0001


def replication(address, keyspace, timeout=10):
    """The keyspace's replication map ({'class': ..., 'serving': '1', ...}), or None when it does not exist."""
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        opcode, _ = exchange(s, STARTUP, string_map({"CQL_VERSION": "3.0.0"}))
        if opcode != READY:
            raise OSError(f"{address}: STARTUP answered opcode {opcode} (authentication is not supported here)")
        query = "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = '%s'" % keyspace.replace("'", "''")
        encoded = query.encode()
        opcode, body = exchange(s, QUERY, struct.pack(">i", len(encoded)) + encoded + struct.pack(">HB", ONE, 0))
        if opcode != RESULT:
            raise OSError(f"{address}: query answered opcode {opcode}")
        rows = read_rows(Reader(body))
        return rows[0][0] if rows else None


def exchange(s, opcode, body):
    s.sendall(struct.pack(">BBhBi", VERSION, 0, 1, opcode, len(body)) + body)
    header = receive(s, 9)
    _, _, _, answer, length = struct.unpack(">BBhBi", header)
    payload = receive(s, length)
    if answer == ERROR:
        reader = Reader(payload)
        code = reader.int()
        raise OSError(f"Cassandra error 0x{code:04x}: {reader.string()}")
    return answer, payload


def receive(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise OSError("connection closed")
        data += chunk
    return data


def string_map(entries):
    out = struct.pack(">H", len(entries))
    for k, v in entries.items():
        for text in (k, v):
            out += struct.pack(">H", len(text.encode())) + text.encode()
    return out


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, n):
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def int(self):
        return struct.unpack(">i", self.take(4))[0]

    def short(self):
        return struct.unpack(">H", self.take(2))[0]

    def string(self):
        return self.take(self.short()).decode()

    def bytes(self):
        n = self.int()
        return None if n < 0 else self.take(n)

    def option(self):
        kind = self.short()
        if kind == 0x0000:
            self.string()
        elif kind in (0x0020, 0x0022):
            self.option()
        elif kind == 0x0021:
            self.option(), self.option()
        elif kind in (0x0030, 0x0031):
            raise OSError("user types and tuples are not read here")
        return kind


def read_rows(r):
    """The rows of a RESULT Rows message, text maps decoded as dicts, other values as bytes."""
    if r.int() != ROWS:
        return []
    flags, columns = r.int(), r.int()
    if flags & 0x0002:
        r.bytes()  # paging state
    if flags & 0x0001:
        r.string(), r.string()
    kinds = []
    for _ in range(columns):
        if not flags & 0x0001:
            r.string(), r.string()
        r.string()
        kinds.append(r.option())
    rows = []
    for _ in range(r.int()):
        rows.append([decode(r.bytes(), kind) for kind in kinds])
    return rows


def decode(value, kind):
    if value is None or kind != 0x0021:
        return value
    r = Reader(value)
    return {r.bytes().decode(): r.bytes().decode() for _ in range(r.int())}
