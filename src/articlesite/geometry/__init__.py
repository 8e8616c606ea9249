"""Figure geometry computed from a spec: layouts and routes, pure functions on boxes."""
