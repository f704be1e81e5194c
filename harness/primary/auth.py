"""Authentication methods as the server checks them (mysql-server sql/auth/sha2_password.cc,
sql/auth/password.cc): the scrambles, the RSA key exchange of caching_sha2_password, and the
TLS certificate made at start-up. The cryptography library does RSA and X.509 (well kept, and
the only way to OAEP-decrypt or self-sign without shelling out to openssl)."""
from __future__ import annotations

import datetime
import hashlib
import ipaddress
import os
import secrets
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID

NATIVE = "mysql_native_password"
CACHING_SHA2 = "caching_sha2_password"
SCRAMBLE_LEN = 20

# caching_sha2_password's one-byte messages after 0x01 (auth more data), and the client's key request.
FAST_AUTH_SUCCESS = b"\x01\x03"
PERFORM_FULL_AUTHENTICATION = b"\x01\x04"
REQUEST_PUBLIC_KEY = b"\x02"


def new_scramble() -> bytes:
    """20 bytes of 1..127 without '$', as generate_user_salt makes them (no NUL: the handshake
    carries them NUL-terminated)."""
    alphabet = bytes(c for c in range(1, 128) if c != ord("$"))
    return bytes(secrets.choice(alphabet) for _ in range(SCRAMBLE_LEN))


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def native_response(password: str, scramble: bytes) -> bytes:
    """SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); empty for an empty password."""
    if not password:
        return b""
    stage1 = hashlib.sha1(password.encode()).digest()
    return _xor(stage1, hashlib.sha1(scramble + hashlib.sha1(stage1).digest()).digest())


def sha2_response(password: str, scramble: bytes) -> bytes:
    """SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + scramble); empty for an empty password."""
    if not password:
        return b""
    stage1 = hashlib.sha256(password.encode()).digest()
    stage2 = hashlib.sha256(stage1).digest()
    return _xor(stage1, hashlib.sha256(stage2 + scramble).digest())


RESPONSES = {NATIVE: native_response, CACHING_SHA2: sha2_response}


def check_scramble(plugin: str, password: str, scramble: bytes, response: bytes) -> bool:
    return secrets.compare_digest(RESPONSES[plugin](password, scramble), response)


def check_cleartext(password: str, data: bytes) -> bool:
    """Full authentication over TLS: the password, NUL-terminated."""
    return secrets.compare_digest(data.rstrip(b"\0"), password.encode())


@dataclass
class Keys:
    """The RSA pair for caching_sha2_password and the TLS context."""
    rsa_key: rsa.RSAPrivateKey
    tls: ssl.SSLContext

    @property
    def public_pem(self) -> bytes:
        return self.rsa_key.public_key().public_bytes(serialization.Encoding.PEM,
                                                      serialization.PublicFormat.SubjectPublicKeyInfo)

    def check_rsa(self, password: str, scramble: bytes, data: bytes) -> bool:
        """The client sent RSA-OAEP(password + NUL, XORed with the scramble repeated)."""
        try:
            plain = self.rsa_key.decrypt(data, padding.OAEP(padding.MGF1(hashes.SHA1()), hashes.SHA1(), None))
        except ValueError:
            return False
        mask = (scramble * (len(plain) // len(scramble) + 1))[:len(plain)]
        return check_cleartext(password, _xor(plain, mask))


def _self_signed(key: rsa.RSAPrivateKey) -> bytes:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "binlog-conformance harness serve")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    return cert.public_bytes(serialization.Encoding.PEM)


def make_keys(cert_file: str | None = None, key_file: str | None = None) -> Keys:
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    if cert_file and key_file:
        ctx.load_cert_chain(cert_file, key_file)
    else:
        with tempfile.TemporaryDirectory() as d:  # load_cert_chain reads files only
            cert, key = Path(d, "cert.pem"), Path(d, "key.pem")
            cert.write_bytes(_self_signed(rsa_key))
            fd = os.open(key, os.O_WRONLY | os.O_CREAT, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(rsa_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()))
            ctx.load_cert_chain(cert, key)
    return Keys(rsa_key, ctx)
