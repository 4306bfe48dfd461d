"""The second factor in the web (``access.second_factor`` decides who needs one):
``/accounts/second-factor/`` asks an enrolled person for a code, or enrols a new device (the
``otpauth://`` URI as a QR code, and its secret to type in), and the middleware sends a person
who needs one there until the session is verified (django-otp's ``OTPMiddleware`` tells).

Sessions are bounded too (ASVS 3.3): ``SESSION_IDLE_SECONDS`` without a request ends one,
``SESSION_ABSOLUTE_SECONDS`` after login ends it whatever (a cage's shift and a margin).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django_otp import login as otp_login

from access.second_factor import (
    base32_secret,
    confirmed_device,
    device_verify,
    enrolment_confirm,
    enrolment_device,
    needs_second_factor,
)

OPEN_PATHS = ("/accounts/", "/static/", "/i18n/")
SESSION_STARTED = "casino_session_started"
SESSION_SEEN = "casino_session_seen"


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        return "/"
    return target


def _qr_svg(uri: str) -> str:
    """The URI as an inline SVG QR code (qrcode's own arithmetic mixes floats into Decimals:
    the project's money never does, and its tests trap it, so not here)."""
    import decimal

    with decimal.localcontext() as context:
        context.traps[decimal.FloatOperation] = False
        import qrcode
        import qrcode.image.svg

        image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
        return str(image.to_string(encoding="unicode"))


@login_required
def second_factor(request: HttpRequest) -> HttpResponse:
    """Verify this session with a code, or enrol a device first."""
    user = request.user
    error = ""
    device = confirmed_device(user)
    if device is not None:
        if request.method == "POST":
            found = device_verify(user, request.POST.get("otp", ""))
            if found is not None:
                otp_login(request, found)
                return redirect(_next(request))
            error = _("That code is not right (or was used already): type the current one.")
        return render(request, "registration/second_factor.html", {
            "enrolling": False, "error": error, "next": _next(request)},
            status=400 if error else 200)
    enrolling = enrolment_device(user)  # type: ignore[arg-type]
    if request.method == "POST":
        if enrolment_confirm(enrolling, request.POST.get("otp", "")):
            otp_login(request, enrolling)
            return redirect(_next(request))
        error = _("That code is not right: type the one your app shows now.")
    label = quote(f"Casino back office:{user.get_username()}")
    uri = (f"otpauth://totp/{label}?secret={base32_secret(enrolling)}"
           f"&issuer={quote('Casino back office')}&digits={enrolling.digits}"
           f"&period={enrolling.step}")
    return render(request, "registration/second_factor.html", {
        "enrolling": True, "error": error, "next": _next(request), "uri": uri,
        "secret": base32_secret(enrolling), "qr": mark_safe(_qr_svg(uri)),
    }, status=400 if error else 200)


def second_factor_confirms(request: HttpRequest, code: str) -> bool:
    """A fresh code of the person's device (issuing a token asks it of anyone with one); a
    person who needs a device and has none is refused (they enrol first)."""
    if confirmed_device(request.user) is not None:
        return device_verify(request.user, code) is not None
    return not (settings.SECOND_FACTOR_ENFORCED and needs_second_factor(request.user))


class SecondFactorMiddleware:
    """After ``OTPMiddleware``: a session past its idle or absolute limit is ended; a person who
    needs a second factor goes to ``/accounts/second-factor/`` until the session is verified
    (under ``/api/`` a 403 in the error shape: a token, not a session, is the API's way)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = time.time()
            started = request.session.setdefault(SESSION_STARTED, now)
            seen = request.session.get(SESSION_SEEN, now)
            if (now - seen > settings.SESSION_IDLE_SECONDS
                    or now - started > settings.SESSION_ABSOLUTE_SECONDS):
                logout(request)
                return redirect(f"{settings.LOGIN_URL}?next={quote(request.get_full_path())}")
            if now - seen > 30:  # written at most twice a minute
                request.session[SESSION_SEEN] = now
            request.session.setdefault(SESSION_SEEN, now)
            if (settings.SECOND_FACTOR_ENFORCED and not request.path.startswith(OPEN_PATHS)
                    and not user.is_verified() and needs_second_factor(user)):
                if request.path.startswith("/api/"):
                    return JsonResponse({"error": {
                        "code": "second_factor", "message": "verify your second factor first "
                        "(/accounts/second-factor/), or call the API with a token",
                        "extra": {}}}, status=403)
                return redirect(f"/accounts/second-factor/?next={quote(request.get_full_path())}")
        return self.get_response(request)
