"""Platform adapters: each turns events into questions and shows the runtime's answers."""
