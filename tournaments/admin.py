"""Django admin for the competition: each area registers its models here."""
