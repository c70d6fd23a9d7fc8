"""Knowledge sources beyond a folder: the web (``web``) and any LlamaHub reader (``llamahub``)."""
