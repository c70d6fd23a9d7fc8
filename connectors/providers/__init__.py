"""Providers of the pipeline's ports: LLMs, embeddings, web search."""
