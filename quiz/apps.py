from django.apps import AppConfig


class QuizConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "quiz"

    def ready(self) -> None:
        """Audio checks (``quiz.audio``, Django-free) read their limits from settings."""
        from django.conf import settings

        from . import audio

        def limits() -> audio.AudioLimits:
            default = audio.AudioLimits()
            return audio.AudioLimits(
                min_seconds=float(getattr(settings, "EARSHOT_CLIP_MIN_SECONDS", default.min_seconds)),
                max_seconds=float(getattr(settings, "EARSHOT_CLIP_MAX_SECONDS", default.max_seconds)),
                min_sample_rate=int(getattr(settings, "EARSHOT_AUDIO_MIN_SAMPLE_RATE", default.min_sample_rate)),
                max_sample_rate=int(getattr(settings, "EARSHOT_AUDIO_MAX_SAMPLE_RATE", default.max_sample_rate)),
                max_bytes=int(getattr(settings, "EARSHOT_CLIP_MAX_BYTES", default.max_bytes)),
            )

        audio.set_limits_provider(limits)
