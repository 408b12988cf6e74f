"""One router per resource: health/metrics, hands (JSON scoring), photos (recognition and photo scoring), the page."""
