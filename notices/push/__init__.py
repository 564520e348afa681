"""Web Push notices (RFC 8030, 8291, 8292): players' devices (subscriptions.py), what each notice
says and when it goes (notify.py, run by the worker's tasks in tasks.py), and the delivery itself
through pywebpush (delivery.py)."""
