from django.apps import AppConfig


class IrtConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "irt"
