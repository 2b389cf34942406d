def test_home_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Croupier Trainer" in response.data


def test_unknown_page_is_404(client):
    assert client.get("/no-such-page").status_code == 404
