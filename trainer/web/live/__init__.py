"""The live class's pages (blueprint `live`, URL prefix /live): the instructor's start form, projector
view and controls, the trainee's join and phone view, the small JSON state both poll, the summary."""

from trainer.web.live.views import bp

__all__ = ["bp"]
