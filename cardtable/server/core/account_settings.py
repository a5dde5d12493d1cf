"""The settings of accounts kept over time: how long guests, sessions and chat are kept,
the word list names and chat pass, and the mail that resets a password.

Part of the one ``settings.ServerSettings`` (which inherits ``AccountSettings``), so each is
a flag of ``cardtable serve`` and a ``CARDTABLE_<NAME>`` variable; docs/server.md's
"accounts" table is made from these fields.  The SMTP password is a secret: never printed,
never logged, read by the code that sends alone.

>>> AccountSettings().chat_days, AccountSettings().smtp_port
(90, 587)
>>> AccountSettings(smtp_password="hunter2").smtp_password
SecretStr('**********')
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

__all__ = ["AccountSettings"]


class AccountSettings(BaseModel):
    """Retention, the word list, and password reset by e-mail."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    guest_days: int = Field(30, ge=1, le=36_500, description="days a guest is kept after "
                            "its first visit, unless it holds a seat at a table in play "
                            "(then until the table ends); its games stay, under its name")
    session_days: int = Field(400, ge=1, le=36_500, description="days a signed-in session "
                              "is kept after it began: then it is signed out")
    chat_days: int = Field(90, ge=1, le=36_500, description="days a chat line is kept")
    retention_every: float = Field(3600.0, ge=1, le=604_800, description="seconds between "
                                   "sweeps that delete what is past its keeping (the first "
                                   "that long after the start)")
    word_list: str = Field("", max_length=1000, description="a file of words (one a line, "
                           "# for comments) that names and chat may not hold, added to the "
                           "shipped list; none: the shipped list alone")
    public_url: str = Field("", max_length=300, pattern=r"^(https?://[^\s/]+)?$",
                            description="the site's address as people reach it, e.g. "
                            "https://cards.example: links in e-mails name it (never a "
                            "request's Host); none: no password reset by e-mail")
    smtp_host: str = Field("", max_length=255, description="the SMTP server that sends "
                           "password-reset mail; none: no password reset by e-mail")
    smtp_port: int = Field(587, ge=1, le=65535, description="the SMTP server's port")
    smtp_tls: Literal["starttls", "tls", "none"] = Field(
        "starttls", description="how mail is sent: STARTTLS on the port, TLS from the "
        "start (465), or none (a relay on the same machine alone)")
    smtp_from: str = Field("", max_length=254, description="the From address of the mail "
                           "(e.g. cardtable@cards.example)")
    smtp_user: str = Field("", max_length=254, description="the SMTP user to sign in as; "
                           "none: no sign-in")
    smtp_password: SecretStr | None = Field(None, description="the SMTP user's password; "
                                            "never printed or logged")
    smtp_timeout: float = Field(10.0, gt=0, le=300, description="seconds a mail may take "
                                "to send before it is given up (and logged, without the "
                                "address)")
    reset_minutes: int = Field(30, ge=1, le=1440, description="minutes a password-reset "
                               "link is good for (once: the new password ends it)")
    reset_per_address: str = Field("5/hour", max_length=200, description="password-reset "
                                   "requests from one address")
    reports_per_address: str = Field("20/hour", max_length=200, description="reports of a "
                                     "player or a chat line from one address")
    challenges_per_account: str = Field("30/hour;100/day", max_length=200, description="new "
                                        "challenges one account may send")
    challenges_open: int = Field(20, ge=1, le=10_000, description="challenges one account "
                                 "may have open (waiting for an answer) at once")
    challenge_hours: int = Field(24, ge=1, le=24 * 30, description="hours a challenge waits "
                                 "for an answer before it expires")
    digest_every: float = Field(3600.0, ge=1, le=86_400, description="seconds between "
                                "looks for inbox digests due (each player who asked for "
                                "one gets at most one mail a day)")

    vapid_private_key: SecretStr | None = Field(
        None, description="Web Push: the server's VAPID private key (base64url of the raw "
        "P-256 key, or a PEM file's path), which signs each push; none: no Web Push")
    vapid_public_key: str = Field("", max_length=200, pattern=r"^[A-Za-z0-9_-]*$",
                                  description="Web Push: the matching public key (base64url "
                                  "of the uncompressed point), which a page subscribes with; "
                                  "none: worked out from a base64url private key")
    vapid_subject: str = Field("", max_length=254, pattern=r"^((mailto:|https://)\S+)?$",
                               description="Web Push: how a push service reaches the site's "
                               "operator (mailto:you@example.org)")
    push_services: str = Field(
        "fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,"
        "notify.windows.com", max_length=1000,
        description="the push services a subscription may name, by host (an https "
        "address on it or under it); an entry starting http is an address prefix itself "
        "(a test's own service)")

    @field_validator("reset_per_address", "reports_per_address", "challenges_per_account")
    @classmethod
    def _a_rate(cls, value: str) -> str:
        from limits import parse_many

        try:
            if not parse_many(value):
                raise ValueError
        except ValueError:
            raise ValueError(f"{value!r} is not a rate such as 10/minute;100/hour") from None
        return value

    @model_validator(mode="after")
    def _vapid_pair(self) -> AccountSettings:
        """Keys that do not match sign pushes no push service takes: refused at start."""
        raw = self._vapid_raw()
        if raw is None:
            return self
        from .vapid import public_key

        try:
            public = public_key(raw)
        except ValueError as error:
            raise ValueError(f"vapid_private_key: {error} (or a PEM file's path ending "
                             "in .pem; `cardtable push-keys` makes a pair)") from None
        if self.vapid_public_key and self.vapid_public_key.rstrip("=") != public:
            raise ValueError("vapid_public_key is not the public half of vapid_private_key "
                             "(leave it out: it is worked out from the private key)")
        return self

    def _vapid_raw(self) -> str | None:
        """The private key when it is given as base64url (not a PEM file's path)."""
        key = (self.vapid_private_key.get_secret_value().strip()
               if self.vapid_private_key is not None else "")
        return key if key and not key.endswith(".pem") else None

    def vapid_public(self) -> str:
        """The public key pages subscribe with: as given, or worked out from a base64url
        private key ("": neither)."""
        raw = self._vapid_raw()
        if self.vapid_public_key or raw is None:
            return self.vapid_public_key
        from .vapid import public_key

        return public_key(raw)

    @property
    def push_off(self) -> str | None:
        """Why Web Push is off, in a sentence naming the setting missing (``None``: on)."""
        if self.vapid_private_key is None or not self.vapid_private_key.get_secret_value():
            return ("no vapid_private_key is set (`cardtable push-keys` makes a key pair)")
        if not self.vapid_public():
            return "no vapid_public_key is set (needed with a PEM file's private key)"
        if not self.vapid_subject:
            return "no vapid_subject is set (mailto: the operator, or an https address)"
        return None

    @property
    def push_on(self) -> bool:
        """Whether Web Push is set up: a private key, its public half, and a subject."""
        return self.push_off is None

    @property
    def mail_on(self) -> bool:
        """Whether a password can be reset by e-mail: a server to send through, a sender,
        and an address for the link."""
        return bool(self.smtp_host and self.smtp_from and self.public_url)
