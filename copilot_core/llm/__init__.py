"""Talking to a model: providers, the two OpenAI APIs, streaming, text tool calls and the prompt budget."""
