"""Local fakes of Slack's Web API and Discord's REST API and gateway, for citebot's tests and yours.

They speak the real wire protocol on 127.0.0.1, so the real slack-bolt and discord.py clients
run against them unchanged.
"""
