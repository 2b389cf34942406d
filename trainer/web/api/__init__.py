"""The JSON API under /api/v1: the blueprint and its error contract, the drill routes, the OpenAPI
document."""
