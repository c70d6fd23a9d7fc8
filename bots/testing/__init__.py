"""A test harness for citebot plugins, shipped in the wheel.

- ``slack_api.FakeSlack`` and ``discord_api.FakeDiscord``: local fakes of Slack's Web API
  and Discord's REST API and gateway on 127.0.0.1. They speak the real wire protocol (the
  real slack-bolt and discord.py clients run against them unchanged) and reject what the
  real services reject: unknown methods and routes, missing arguments, payloads over the
  platforms' limits.
- ``slack_bot.SlackTestBot`` and ``discord_bot.DiscordTestBot``: a real citebot with your
  plugins against those fakes, answering from ``answerer.ScriptedAnswerer`` (no model).
- The ``citebot`` pytest fixture (``pytest_plugin``), loaded automatically with citebot.
"""
