from __future__ import annotations

from django.contrib import admin
from django.urls import path

from companion import views

urlpatterns = [
    path("", views.home, name="home"),
    path("settle/", views.settle_hand, name="settle_hand"),
    path("admin/", admin.site.urls),
]
