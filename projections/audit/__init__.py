"""The post-game audit: every hidden move and every draw checked, told in sentences before
its evidence.

- `report`: `build_audit`, the checks and the `AuditReport`;
- `shown`: what the audit may show a viewer of a game not yet over;
- `story`: the audit told in sentences (what a dispute asks first);
- `render`: the report as Markdown and as text.
"""
