"""Question / answering-chunk pairs the embedding grader is calibrated on (see pipeline/graders.py)."""

# (subject, question, the chunk that answers it)
PAIRS = [
    (
        "devops",
        "How do I rotate the API keys?",
        "Rotating API keys\n\nTo rotate a key, open Settings › API keys and click Rotate next to the key. The old key keeps working for 24 hours so that running jobs can switch over; after that it is revoked. Rotation is logged in the audit trail.",
    ),
    (
        "devops",
        "What port does the server listen on by default?",
        "Configuration\n\nThe server listens on port 8080 by default. Set PORT or the `server.port` option to change it. Behind a reverse proxy, also set `server.trusted_proxies` so that client addresses are logged correctly.",
    ),
    (
        "devops",
        "How do I back up the database?",
        "Backups\n\nRun `acme backup create` to take a consistent snapshot of the database. Snapshots are written to the backup bucket configured in `storage.backups`. Schedule it with cron; we recommend a daily backup kept for 30 days.",
    ),
    (
        "devops",
        "Which Python versions are supported?",
        "Installation\n\nacme supports Python 3.10, 3.11 and 3.12 on Linux and macOS. Windows works through WSL2. Install it with pip install acme, preferably in a virtual environment.",
    ),
    (
        "devops",
        "How can I enable single sign-on?",
        "Single sign-on (SSO)\n\nAdministrators can enable SAML single sign-on under Organization › Security. Upload your identity provider's metadata XML, map the email attribute, and test the login before enforcing SSO for all members.",
    ),
    (
        "devops",
        "why does the deploy fail with a 413 error",
        "Troubleshooting uploads\n\nA 413 Request Entity Too Large during deploy means the bundle exceeds the proxy's body limit. Raise client_max_body_size in nginx or split the bundle; the default limit is 10 MB.",
    ),
    (
        "hr",
        "How many vacation days do new employees get?",
        "Paid time off\n\nFull-time employees accrue 25 days of paid vacation per year, starting on their first day. Part-time employees accrue vacation pro rata. Unused days up to five can be carried into the next year.",
    ),
    (
        "hr",
        "What is the parental leave policy?",
        "Parental leave\n\nAll parents, regardless of gender, are entitled to 16 weeks of fully paid parental leave within the first year after a birth or adoption. Leave can be split into up to three blocks.",
    ),
    (
        "hr",
        "Can I expense a home office chair?",
        "Home office stipend\n\nRemote employees can claim up to 500 EUR once every three years for home office equipment such as a desk, an ergonomic chair or a monitor. Submit the receipt through the expenses tool.",
    ),
    (
        "hr",
        "who do I contact about payroll mistakes",
        "Payroll\n\nSalaries are paid on the 25th of each month. If your payslip looks wrong, email payroll@example.com with the month and a short description; the payroll team answers within two working days.",
    ),
    (
        "cooking",
        "How long should I rest a steak after cooking?",
        "Resting meat\n\nLet a steak rest for about five minutes, or half its cooking time, before slicing. Resting lets the juices redistribute so they stay in the meat instead of running onto the board.",
    ),
    (
        "cooking",
        "What is the ratio of flour to water for bread?",
        "Basic bread dough\n\nA good starting hydration for a simple loaf is 65 percent: 650 grams of water for every kilogram of flour, plus 20 grams of salt and 7 grams of dried yeast.",
    ),
    (
        "cooking",
        "how do i keep guacamole from turning brown",
        "Guacamole\n\nAvocado browns when it meets air. Press plastic wrap directly onto the surface of the guacamole and add plenty of lime juice; the acid slows the oxidation for several hours.",
    ),
    (
        "science",
        "Why is the sky blue?",
        "Rayleigh scattering\n\nSunlight is scattered by the molecules of the atmosphere, and shorter wavelengths scatter much more strongly than longer ones. Blue light is therefore scattered across the whole sky, which is why it looks blue during the day.",
    ),
    (
        "science",
        "What is the speed of light in a vacuum?",
        "Physical constants\n\nThe speed of light in vacuum, c, is exactly 299,792,458 metres per second. Since 1983 the metre has been defined from it.",
    ),
    (
        "science",
        "How do vaccines train the immune system?",
        "How vaccines work\n\nA vaccine exposes the immune system to a harmless piece or a weakened form of a pathogen. B cells make antibodies against it and memory cells remember it, so a later infection is fought off quickly.",
    ),
    (
        "python",
        "How do I read a file line by line in Python?",
        "Reading files\n\nOpen the file with a with-statement and iterate over the file object: `for line in open_file:` yields one line at a time without loading the whole file into memory.",
    ),
    (
        "python",
        "What does the GIL do?",
        "The global interpreter lock\n\nCPython's global interpreter lock (GIL) lets only one thread execute Python bytecode at a time. It simplifies memory management but limits CPU-bound multithreading; use processes or free-threaded builds for parallel CPU work.",
    ),
    (
        "python",
        "how to create a virtual environment",
        "Virtual environments\n\nCreate one with `python -m venv .venv`, then activate it with `source .venv/bin/activate` on Linux and macOS or `.venv\\Scripts\\activate` on Windows. Packages installed afterwards stay inside it.",
    ),
    (
        "legal",
        "How long do you keep my personal data?",
        "Data retention\n\nWe keep account data for as long as your account is active and delete it within 30 days after you close your account, except where the law requires us to keep invoices for ten years.",
    ),
]
