"""``bjsim report``: a mathematical assessment of a rule set, as a regulator asks for it.

The flow: `figures.compute` runs the simulations and the exact analysis once and returns every
figure in one JSON-ready dict (saved as ``report.json``); `sections.build` turns that dict into
titled sections of text, tables and charts; `render` writes them as HTML and Markdown and
`output` writes the folder (each table also as CSV, the charts of `charts`, the PDF printed by
headless Chromium, `chromium`). No rendering computes a figure.
"""

from simulator.assessment.figures import Spec, compute
from simulator.assessment.output import write_report  # noqa: E402

__all__ = ["Spec", "compute", "write_report"]
