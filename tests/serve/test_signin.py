"""Sign-in records of ``warroom serve``: a cookie names a record on the server, which expires."""

from __future__ import annotations

from aiohttp.test_utils import make_mocked_request

from warroom.serve import Roster, SignIns
from warroom.serve import _signin as signin
from warroom.serve._signin import COOKIE, SIGNIN_LIFETIME


def _request(cookie: str | None = None):
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    return make_mocked_request("GET", "/", headers=headers)


def test_without_a_roster_every_browser_is_the_default_trainee():
    signins = SignIns(roster=None, default_trainee="facilitator")
    assert signins.trainee_of(_request()) == "facilitator"
    assert signins.trainee_of(_request("anything")) == "facilitator"


def test_a_sign_in_names_its_trainee_until_it_expires(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(signin.time, "monotonic", lambda: now[0])
    signins = SignIns(roster=Roster({}), default_trainee="facilitator")
    signins._records["abc"] = signin.SignIn("Ada Lovelace", "trainee", "hash", now[0])
    assert signins.trainee_of(_request("abc")) == "Ada Lovelace"
    assert signins.trainee_of(_request("abd")) is None
    assert signins.trainee_of(_request()) is None  # never the default trainee when there is a roster
    now[0] += SIGNIN_LIFETIME + 1
    assert signins.trainee_of(_request("abc")) is None
    assert "abc" not in signins._records
