"""Annotated histories: annotation streams, variations played through the rules, audiences.

`streams` names, encodes and checks the history streams; `notes` writes and reads a
game's annotations; `variations` opens and plays variations through the decision kernel;
`locations` says which cells or map locations markup may name.
"""
