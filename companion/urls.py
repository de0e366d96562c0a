from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from companion.views import (
    confirmations,
    disputes,
    evenings,
    exchange,
    games,
    groups,
    history,
    languages,
    pages,
    screens,
)

urlpatterns = [
    path("", pages.home, name="home"),
    path("sw.js", pages.service_worker, name="service_worker"),
    path("settle/", pages.settle_hand, name="settle_hand"),
    path("dispute/", disputes.dispute, name="dispute"),
    # Games and hands (companion.views.games)
    path("groups/<int:group_id>/games/<int:pk>/", games.game, name="game"),
    path("groups/<int:group_id>/games/<int:pk>/undo/", games.undo_hand, name="undo_hand"),
    path(
        "groups/<int:group_id>/games/<int:pk>/share-link/",
        games.new_share_link,
        name="new_share_link",
    ),
    path("groups/<int:group_id>/games/<int:pk>/hands/new/", games.hand_new, name="hand_new"),
    path(
        "groups/<int:group_id>/games/<int:pk>/hands/<int:number>/",
        games.hand_edit,
        name="hand_edit",
    ),
    path(
        "groups/<int:group_id>/games/<int:pk>/hands/<int:number>/delete/",
        games.delete_hand,
        name="delete_hand",
    ),
    # Second-seat confirmation (companion.views.confirmations)
    path(
        "groups/<int:group_id>/games/<int:pk>/hands/<int:number>/confirm/",
        confirmations.confirm_hand,
        name="confirm_hand",
    ),
    path(
        "groups/<int:group_id>/games/<int:pk>/hands/<int:number>/flag/",
        confirmations.flag_hand,
        name="flag_hand",
    ),
    path(
        "groups/<int:group_id>/games/<int:pk>/hands/<int:number>/unflag/",
        confirmations.unflag_hand,
        name="unflag_hand",
    ),
    path("groups/<int:group_id>/games/<int:pk>/history/", games.game_history, name="game_history"),
    path(
        "groups/<int:group_id>/games/<int:pk>/dispute/",
        disputes.game_dispute,
        name="game_dispute",
    ),
    path("watch/<slug:token>/", games.watch, name="watch"),
    # The table's own screen and the "Trump declared" tap (companion.views.screens)
    path("watch/<slug:token>/table/", screens.table_screen, name="table_screen"),
    path(
        "groups/<int:group_id>/games/<int:pk>/trump/",
        screens.declare_trump,
        name="declare_trump",
    ),
    # The group's ladder history, players and ratings (companion.views.history)
    path("groups/<int:group_id>/history/", history.group_history, name="group_history"),
    path("groups/<int:group_id>/players/<int:pk>/", history.player, name="player"),
    path("groups/<int:group_id>/games/<int:pk>/replay/", history.game_replay, name="game_replay"),
    # Accounts, groups, rosters, scoring tables, new games (companion.views.groups)
    path("accounts/signup/", groups.signup, name="signup"),
    path("accounts/password_reset/", groups.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("groups/new/", groups.group_new, name="group_new"),
    path("groups/<int:pk>/", groups.group, name="group"),
    path("groups/<int:pk>/rename/", groups.rename_group, name="rename_group"),
    path("groups/<int:pk>/me/", groups.claim_player, name="claim_player"),
    path("groups/<int:pk>/players/retire/", groups.retire_player, name="retire_player"),
    path("groups/<int:pk>/players/bring-back/", groups.bring_back_player, name="bring_back_player"),
    path("groups/<int:pk>/members/remove/", groups.remove_member, name="remove_member"),
    path("groups/<int:pk>/members/admin/", groups.make_admin, name="make_admin"),
    path("groups/<int:pk>/leave/", groups.leave_group, name="leave_group"),
    path(
        "groups/<int:pk>/confirmations/",
        groups.ask_for_confirmations,
        name="ask_for_confirmations",
    ),
    path("groups/<int:pk>/invite/", groups.new_invite, name="new_invite"),
    path("groups/<int:pk>/log/", groups.group_log, name="group_log"),
    path("groups/<int:pk>/tables/new/", groups.table_new, name="table_new"),
    path("groups/<int:pk>/tables/<int:table_id>/", groups.table_edit, name="table_edit"),
    path("groups/<int:pk>/games/new/", groups.game_new, name="game_new"),
    path("join/<slug:token>/", groups.group_join, name="group_join"),
    # Club nights (companion.views.evenings)
    path("groups/<int:pk>/evenings/", evenings.evenings, name="evenings"),
    path("groups/<int:pk>/evenings/new/", evenings.evening_new, name="evening_new"),
    path("groups/<int:group_id>/evenings/<int:pk>/", evenings.evening, name="evening"),
    path(
        "groups/<int:group_id>/evenings/<int:pk>/swap/",
        evenings.swap_players,
        name="swap_players",
    ),
    path(
        "groups/<int:group_id>/evenings/<int:pk>/start/", evenings.start_round, name="start_round"
    ),
    path("groups/<int:group_id>/evenings/<int:pk>/next/", evenings.next_round, name="next_round"),
    path(
        "groups/<int:group_id>/evenings/<int:pk>/join/", evenings.join_evening, name="join_evening"
    ),
    path(
        "groups/<int:group_id>/evenings/<int:pk>/leave/",
        evenings.leave_evening,
        name="leave_evening",
    ),
    path("groups/<int:group_id>/evenings/<int:pk>/end/", evenings.end_evening, name="end_evening"),
    path("room/<slug:token>/", evenings.evening_room, name="evening_room"),
    # A group's export and import (companion.views.exchange)
    path("groups/<int:group_id>/export.json", exchange.group_export, name="group_export"),
    path("groups/<int:group_id>/export.csv", exchange.group_export_csv, name="group_export_csv"),
    path("groups/import/", exchange.group_import, name="group_import"),
    path("groups/import/dismiss/", exchange.dismiss_import, name="dismiss_import"),
    # The language switch on every page (Django's set_language, remembered for an account)
    path("i18n/setlang/", languages.set_language, name="set_language"),
    path("admin/", admin.site.urls),
]
