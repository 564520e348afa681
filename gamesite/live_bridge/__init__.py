"""Live updates without Redis: the database as the channel from the task worker to the app server
(``make run``). See layer.py."""
