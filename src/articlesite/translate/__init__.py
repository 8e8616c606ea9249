"""The tools around translation: the confirmation record, the translator's view and the
script that measures text fit in it; exchange with translation tools, the dictionary's
writer, article sections' staleness and the editor in `serve`."""
