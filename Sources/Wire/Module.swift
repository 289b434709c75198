// Wire module
