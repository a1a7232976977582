"""The FastAPI service: routers per resource, the only HTTP code."""
