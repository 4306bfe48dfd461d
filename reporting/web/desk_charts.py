"""The desk's charts as a PDF (reportlab, as the close report and the slips are printed): the
same bars the desk draws as SVG (``ledger.charts``), drawn again as vector graphics a PDF keeps,
to file or to attach to a report, with the period, the casino's currency and the day printed.
"""

from __future__ import annotations

import datetime as dt
import io

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from edge.web.money import money_text
from ledger.charts import Chart

from .desk import DAYS_SHOWN, _charts
from .views import _casino, _today

SCALE = 0.72  # the SVG's 720 px onto A4's 180 mm of text width


@login_required
@require_GET
def desk_charts_pdf(request: HttpRequest, casino: str) -> HttpResponse:
    the_casino = _casino(request, casino)
    today = _today(the_casino)
    day_from = today - dt.timedelta(days=DAYS_SHOWN - 1)
    titles = {"day": _("Win by gaming day"), "game": _("Win by game"),
              "table": _("Win by table")}
    styles = getSampleStyleSheet()
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm,
                            title=f"{the_casino.name} · {_('Results')}")
    story = [Paragraph(f"{the_casino.name} · {_('Results')} {day_from.isoformat()} … "
                       f"{today.isoformat()} ({the_casino.currency})", styles["Title"]),
             Paragraph(_("Win = round results + variance, from the journal; a loss is drawn "
                         "left of zero."), styles["Normal"])]
    for by, chart in _charts(casino, day_from, today):
        story += [Spacer(1, 5 * mm), Paragraph(titles[by], styles["Heading3"])]
        story.append(_drawing(chart, the_casino.currency) if chart.bars else
                     Paragraph(_("No table results."), styles["Normal"]))
    doc.build(story)
    response = HttpResponse(out.getvalue(), content_type="application/pdf")
    response["Content-Disposition"] = (f'inline; filename="results-{casino}-'
                                       f'{today.isoformat()}.pdf"')
    return response


def _drawing(chart: Chart, currency: str) -> Drawing:
    """The chart's bars as the SVG has them, y turned upside down (a PDF counts from below)."""
    height = chart.height
    drawing = Drawing(chart.width * SCALE, height * SCALE)
    drawing.add(Line(chart.zero_x * SCALE, 0, chart.zero_x * SCALE, height * SCALE,
                     strokeColor=colors.HexColor("#9999aa")))
    for bar in chart.bars:
        y = (height - bar.y - 16) * SCALE
        drawing.add(Rect(bar.x * SCALE, y, bar.width * SCALE, 16 * SCALE, strokeWidth=0,
                         fillColor=colors.HexColor("#c0504d" if bar.negative else "#4f81bd")))
        drawing.add(String(3, y + 3, bar.label[:26], fontSize=8))
        drawing.add(String(chart.value_x * SCALE, y + 3, money_text(bar.value, currency),
                           fontSize=8, textAnchor="end"))
    return drawing
