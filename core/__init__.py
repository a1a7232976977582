"""The engine: rules protocol and registry, engine, store, randomness, undo, chain checks.

`core/<game>/` holds each game's rules and reducers. Nothing in `core/` prints or knows HTTP.
"""
