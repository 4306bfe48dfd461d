"""The second factor (ASVS 2.7/2.8, level 2; issue 35, finding 9): a time-based one-time
password (TOTP, RFC 6238, django-otp's ``TOTPDevice``: 30-second steps, 6 digits, one step of
drift either way) for the people who can move or read most: administrators, cage supervisors,
accountants, compliance officers, regulators' inspectors and superusers. Anyone may enrol one;
once enrolled it is asked of them too. Issuing an API token asks for a fresh code of anyone
with a device (``shell.web.tokens``).

Who needs one is decided here, once; the web asks it (``shell.web.second_factor``).
``SECOND_FACTOR_ENFORCED`` (on; the unit tests turn it off, ``config.pytest_env``, and the tests
of the factor itself on) makes the web require it at login.
"""

from __future__ import annotations

import base64
import binascii

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.models import Membership, Role

SECOND_FACTOR_ROLES = (Role.ADMINISTRATOR, Role.CAGE_SUPERVISOR, Role.ACCOUNTANT,
                       Role.COMPLIANCE_OFFICER, Role.REGULATOR)
DEVICE_NAME = "authenticator"
# The demo's known secret (RFC 6238's test key, "12345678901234567890"): the demo's people who
# need a second factor have it (demo.management.commands.seed_demo, README); DEBUG only.
DEMO_TOTP_KEY_HEX = "3132333435363738393031323334353637383930"
DEMO_TOTP_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  # the same, in base 32 (authenticator apps)


def needs_second_factor(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``user``'s role asks for a second factor (or they enrolled one)."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False) or getattr(user, "is_staff", False):
        return True
    if getattr(user, "regulator_account", None) is not None:
        return True
    if Membership.objects.filter(user_id=user.pk, role__in=SECOND_FACTOR_ROLES).exists():
        return True
    return confirmed_device(user) is not None


def confirmed_device(user: AbstractBaseUser | AnonymousUser) -> TOTPDevice | None:
    if not user.is_authenticated:
        return None
    return TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).first()


def device_verify(user: AbstractBaseUser | AnonymousUser, code: str) -> TOTPDevice | None:
    """The confirmed device ``code`` is a valid one-time password of, or None (a code is
    accepted once: django-otp remembers the last step used)."""
    device = confirmed_device(user)
    code = code.strip().replace(" ", "")
    if device is None or not code.isdigit() or len(code) != device.digits:
        return None
    return device if device.verify_token(code) else None


def enrolment_device(user: AbstractBaseUser) -> TOTPDevice:
    """The user's device being enrolled (unconfirmed until a first code proves it)."""
    device = TOTPDevice.objects.filter(user_id=user.pk, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=False)
    return device


def enrolment_confirm(device: TOTPDevice, code: str) -> bool:
    """Confirm ``device`` with its first code; its other devices are then removed."""
    code = code.strip().replace(" ", "")
    if not code.isdigit() or not device.verify_token(code):
        return False
    TOTPDevice.objects.filter(user_id=device.user_id).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return True


def base32_secret(device: TOTPDevice) -> str:
    return base64.b32encode(binascii.unhexlify(device.key)).decode("ascii").rstrip("=")


def demo_device(user: AbstractBaseUser) -> TOTPDevice:
    """A confirmed device with the demo's known key (the demo only)."""
    TOTPDevice.objects.filter(user_id=user.pk).delete()
    return TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=True,
                                     key=DEMO_TOTP_KEY_HEX)
