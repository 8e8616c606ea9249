"""Loading: the site config, articles, the figure-text dictionary and figure specs, read
from the project folder into plain data objects that keep their source positions."""
