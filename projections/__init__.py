"""Read models: per-viewer views, redacted logs, exports, standings; and the Table facade
through which every payload leaves the engine already projected for its viewer."""
