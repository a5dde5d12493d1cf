"""What every sub-package of the server shares: the refusal and its codes, the clock,
the settings and bounds, the metrics, and the messages' models (to the page and between
processes), with no router and no storage."""
