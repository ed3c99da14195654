"""From a parsed question to tool calls: the router, prefetch, follow-ups and clarifying options."""
