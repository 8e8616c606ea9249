"""Commands and tools that make and change figure specs (`figures/<id>.yaml`)."""
