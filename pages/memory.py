"""Copilot memory: what the copilot learned per chip, for staff to review and delete."""

import pandas as pd
import streamlit as st

from copilot_core.data.memory_store import MemoryStore
from copilot_core.memory import CopilotMemory
from ui import data, navigation, widgets
from ui.chat_session import current_username
from copilot_core.render_safety import escape, safe_label, safe_text
from ui.errors import page_guard

KIND_LABELS = {"parameter": "parameter asked about", "code": "analysis code that worked", "error_fix": "error → fix"}

navigation.through_app()
st.title("Copilot memory")
st.caption("What the copilot remembers from earlier conversations about each chip: the parameters people asked "
           "about, analysis code that worked, and how it fixed its own errors. Entries that stop being useful fade "
           "away on their own. The most useful ones are given to the copilot at the start of every conversation; "
           "it can look up the others when a question needs them. The copilot wrote these entries itself: delete "
           "anything wrong or unwanted.")

with page_guard("the memory page"):
    settings = data.settings()
    memory = CopilotMemory(MemoryStore(data.repository().db, project_id=settings.project_id,
                                       owner=current_username(settings)))
    chip = widgets.chip_selector()
    if chip is not None:
        chip_id = chip["chip_id"]
        others = [c for c in memory.store.chips() if c["chip_id"] != chip_id]
        if others:
            st.caption(escape("Other chips with memory: " + ", ".join(f"{c['chip_id']} ({c['entries']})"
                                                                       for c in others)))
        entries = memory.entries(chip_id)
        if not entries:
            widgets.no_data(f"The copilot has no memory for {chip_id} yet. It learns from answered questions "
                            "(parameters asked about, analysis code that worked, fixes of failed runs).")
        else:
            frame = pd.DataFrame([{"kind": KIND_LABELS.get(e["kind"], e["kind"]), "key": e["key"], "text": e["text"],
                                   "hits": round(e["hits"], 2), "updated (UTC)": e["updated_at"]} for e in entries])
            event = st.dataframe(frame, hide_index=True, key=f"memory_table_{chip_id}", on_select="rerun",
                                 selection_mode="multi-row", row_height=52, column_config={
                                     "kind": st.column_config.TextColumn("what", width=170),
                                     "key": st.column_config.TextColumn("about", width=150),
                                     "text": st.column_config.TextColumn("remembered", width="large"),
                                     "hits": st.column_config.NumberColumn(
                                         "usefulness", format="%.1f", width=80,
                                         help="Grows each time the entry helps, fades when it does not"),
                                     "updated (UTC)": st.column_config.DatetimeColumn(
                                         "updated (UTC)", format="YYYY-MM-DD HH:mm", width=130)})
            rows = list(event.selection.rows) if event is not None else []
            left, right = st.columns(2)
            if left.button(safe_label(f"Delete {len(rows)} selected"), disabled=not rows, key="memory_delete",
                           icon=":material/delete:"):
                deleted = sum(memory.delete(chip_id, entries[i]["id"]) for i in rows if i < len(entries))
                st.toast(escape(f"Deleted {deleted} memory entr{'y' if deleted == 1 else 'ies'}."))
                st.rerun()
            with right.popover("Clear all memory of this chip", icon=":material/delete_forever:"):
                st.markdown(escape(f"Delete all {len(entries)} entries of {chip_id}?"))
                if st.button("Yes, clear it", key="memory_clear", type="primary"):
                    memory.clear(chip_id)
                    st.rerun()
            for i in rows[:5]:
                if i < len(entries) and entries[i]["kind"] == "code":
                    st.caption(escape(f"Code entry {entries[i]['key']}"))
                    st.code(safe_text(entries[i]["text"]), language="python")
            with st.expander("What the copilot is told about this chip when a conversation starts"):
                st.code(safe_text(memory.prompt_section(chip_id) or "(nothing)"), language=None)
