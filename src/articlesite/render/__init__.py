"""Rendering: Markdown to HTML, formulas to MathML, figures and pages through the Jinja
templates."""
