"""``{% campaign_links project %}``: links to a public project's open campaigns (home page)."""

from __future__ import annotations

from django import template

from accounts.models import Project
from annotation.models import CampaignStatus

register = template.Library()


@register.inclusion_tag("annotation/_campaign_links.html")
def campaign_links(project: Project) -> dict:
    """Open campaigns of a *public* project: anyone may try the annotator role there.
    Private projects' campaigns are never listed (their links carry a secret token)."""
    campaigns = list(project.campaigns.filter(status=CampaignStatus.OPEN).order_by("name")) \
        if project.is_public else []
    return {"project": project, "campaigns": campaigns}
