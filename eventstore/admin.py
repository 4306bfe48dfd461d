"""Events are not in the Django admin (configuration only): the regulator reads them through
the API's event feed, and ``/history/<casino>/<kind>/<id>/`` shows any thing's events."""
