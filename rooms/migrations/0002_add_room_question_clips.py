from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("rooms", "0001_create_rooms"),
    ]

    operations = [
        migrations.AddField(
            model_name="roomquestion",
            name="clip_durations",
            field=models.JSONField(
                blank=True, default=list,
                help_text="Seconds of each clue's clip, fixed when the question begins: its clock (rooms.protocol)."),
        ),
        migrations.AddField(
            model_name="roomquestion",
            name="clip_ids",
            field=models.JSONField(
                blank=True, default=list,
                help_text="Public ids of the clue clips, in order, fixed when the question begins."),
        ),
    ]
