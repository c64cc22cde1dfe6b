"""Everything that touches the physical table: seat panels on gpiozero and frame sources."""
