"""The tools around translation: the confirmation record, the translator's view and the
script that measures text fit in it."""
