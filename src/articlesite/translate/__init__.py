"""The translator's tools: exchange with translation tools, the dictionary's writer,
article sections' staleness and the editor in `serve`."""
