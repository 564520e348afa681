"""The JSON API at /api/v1/ (django-ninja): a thin layer over backgammon's services."""
