"""A raw WebSocket client on a plain socket that can stop reading entirely (a slow client)."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct


def open_raw(port: int, path: str, rcvbuf: int = 4096) -> socket.socket:
    """Connect and complete the WebSocket handshake; the socket's receive buffer is tiny."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        head += chunk
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise ConnectionError(head.decode(errors="replace"))
    return sock


def send_text(sock: socket.socket, text: str) -> None:
    """Send one masked text frame."""
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    if n < 126:
        header = bytes([0x81, 0x80 | n])
    elif n < 1 << 16:
        header = bytes([0x81, 0x80 | 126]) + struct.pack("!H", n)
    else:
        header = bytes([0x81, 0x80 | 127]) + struct.pack("!Q", n)
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def frames_until_close(sock: socket.socket, timeout: float = 30.0) -> tuple[list[dict], int | None]:
    """Read every frame until the server's close frame: the text frames (parsed JSON) and the
    close code (None at EOF or a close frame without a code)."""
    sock.settimeout(timeout)
    buf = b""
    texts: list[dict] = []

    def need(n: int) -> bytes:
        nonlocal buf
        while len(buf) < n:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError
            buf += chunk
        out, buf = buf[:n], buf[n:]
        return out

    try:
        while True:
            b0, b1 = need(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", need(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", need(8))[0]
            payload = need(n)
            if b0 & 0x0F == 0x8:
                return texts, (struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None)
            if b0 & 0x0F == 0x1:
                texts.append(json.loads(payload))
    except EOFError:
        return texts, None


def read_until_close(sock: socket.socket, timeout: float = 30.0) -> int | None:
    """Read every frame until the server's close frame; return its close code (None at EOF)."""
    return frames_until_close(sock, timeout)[1]
