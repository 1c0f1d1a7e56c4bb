"""Private part of warroom.core.load."""
