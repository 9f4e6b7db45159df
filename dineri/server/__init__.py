"""The table server: FastAPI app factory, routers, WebSocket endpoints, table sessions, clocks."""
