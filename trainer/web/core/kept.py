"""Answers kept on the phone while it had no connection, sent back by `static/js/answer-queue.js`.

The script posts the kept form as it was (its CSRF token, its drill, step or sitting) with the header
`X-Kept-Answer: 1`, and the view that takes the answer judges it as any other: by the server's clock
(a sprint, a timed quiz or a table test whose time ran out before the answer arrived refuses it) and
by what is recorded (a second copy, from another tab or a replay, is refused: one answer per drill, step
or sitting). Only the reply differs: a redirect or a page would be read by nobody, so the answer's
fate comes back as JSON, `recorded`, the sentence the phone shows (in the page's language) and where
to go on (`href`, with the words of its link), and a refusal keeps its 4xx status.
"""

from __future__ import annotations

from flask import Response, jsonify, redirect, request

HEADER = "X-Kept-Answer"


def is_kept() -> bool:
    """Whether this request is a kept answer sent back by the phone's queue."""
    return request.headers.get(HEADER) == "1"


def reply(
    message: str,
    *,
    recorded: bool,
    href: str | None = None,
    link: str | None = None,
    status: int | None = None,
) -> tuple[Response, int]:
    """The kept answer's fate for the phone: 200 when it was recorded, else `status` (409 unless said)."""
    body = jsonify(recorded=recorded, message=message, href=href, link=link)
    return body, status if status is not None else (200 if recorded else 409)


def recorded(message: str, *, href: str, link: str, code: int = 302) -> Response | tuple[Response, int]:
    """The reply once the answer is recorded: to the phone's queue `message` and the way on (`href`,
    named by `link`), to a browser the redirect to `href`."""
    if is_kept():
        return reply(message, recorded=True, href=href, link=link)
    return redirect(href, code=code)
